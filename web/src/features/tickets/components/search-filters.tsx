import Search from '@mui/icons-material/Search';
import { Autocomplete, Box, Chip, InputAdornment, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useTagOptions } from '../../../lib/lookups/tags.ts';
import { useUserNames } from '../../../lib/lookups/users.ts';
import { contrastOn } from './ticket-row.tsx';

interface SearchFiltersProps {
  search: string;
  onSearch: (value: string) => void;
  tags: number[];
  onTags: (ids: number[]) => void;
  users: number[];
  onUsers: (ids: number[]) => void;
  admin: boolean;
}

/** SPEC 2 Search tab: the search box (debounced by the manager), the tag filter and, for admins, the user filter. */
export function SearchFilters({ search, onSearch, tags, onTags, users, onUsers, admin }: SearchFiltersProps) {
  const { t } = useTranslation();
  const tagOptions = useTagOptions();
  const userOptions = useUserNames(admin);
  const tagList = tagOptions.data ?? [];
  const userList = userOptions.data ?? [];
  return (
    <Stack spacing={1} sx={{ p: 1, borderBottom: 1, borderColor: 'divider' }}>
      <TextField
        size="small"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        placeholder={t('inbox.searchPlaceholder')}
        autoFocus
        slotProps={{
          htmlInput: { 'aria-label': t('inbox.searchPlaceholder') },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {(tagList.length > 0 || (admin && userList.length > 0)) && (
        <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: admin && tagList.length > 0 ? '1fr 1fr' : '1fr' }}>
          {tagList.length > 0 && (
            <Autocomplete
              multiple
              size="small"
              options={tagList}
              value={tagList.filter((tag) => tags.includes(tag.id))}
              onChange={(_, value) => onTags(value.map((tag) => tag.id))}
              getOptionLabel={(tag) => tag.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderValue={(value, getItemProps) =>
                value.map((tag, index) => {
                  const { key, ...itemProps } = getItemProps({ index });
                  return (
                    <Chip
                      key={key}
                      {...itemProps}
                      size="small"
                      label={tag.name}
                      sx={{ bgcolor: tag.color, color: (theme) => contrastOn(theme, tag.color) }}
                    />
                  );
                })
              }
              renderInput={(params) => <TextField {...params} placeholder={t('inbox.tags')} />}
            />
          )}
          {admin && userList.length > 0 && (
            <Autocomplete
              multiple
              size="small"
              options={userList}
              value={userList.filter((u) => users.includes(u.id))}
              onChange={(_, value) => onUsers(value.map((u) => u.id))}
              getOptionLabel={(u) => u.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => <TextField {...params} placeholder={t('inbox.users')} />}
            />
          )}
        </Box>
      )}
    </Stack>
  );
}
