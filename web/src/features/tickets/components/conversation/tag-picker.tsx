import type { Ticket } from '@conversa/functions/contracts/tickets';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { type TagOption, useTagOptions } from '../../../../lib/lookups/tags.ts';
import { useErrorToast } from '../../../../lib/use-api-error.ts';
import { useSyncTicketTags } from '../../api/ticket-tags.ts';
import { contrastOn } from '../ticket-row.tsx';

/**
 * SPEC 2 "Conversation": the tag picker under the header. Every change sends the ticket's whole set
 * (POST /tags/sync); the answer and the realtime update show the tags in the list row and here.
 */
export function TagPicker({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const tags = useTagOptions();
  const sync = useSyncTicketTags();
  const known = new Map((tags.data ?? []).map((tag) => [tag.id, tag]));
  // The ticket's copy is what the server holds; the list gives the current colours and names.
  const value: TagOption[] = ticket.tags.map((tag) => known.get(tag.id) ?? tag);

  const change = (next: TagOption[]) => {
    sync.mutate({ ticketId: ticket.id, tagIds: next.map((tag) => tag.id) }, { onError: showError });
  };

  return (
    <Box sx={{ px: 1.5, py: 0.75, borderBottom: 1, borderColor: 'divider', display: 'flex', alignItems: 'center', gap: 1 }}>
      <LocalOfferOutlined fontSize="small" color="action" />
      <Autocomplete
        multiple
        size="small"
        fullWidth
        options={tags.data ?? []}
        value={value}
        loading={tags.isPending || sync.isPending}
        disabled={sync.isPending}
        onChange={(_, next) => change(next)}
        getOptionLabel={(tag) => tag.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        noOptionsText={t('conversation.tags.none')}
        renderValue={(selected, getItemProps) =>
          selected.map((tag, index) => {
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
        renderOption={(props, tag) => {
          const { key, ...optionProps } = props;
          return (
            <Box component="li" key={key} {...optionProps} sx={{ gap: 1 }}>
              <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: tag.color, flexShrink: 0 }} />
              {tag.name}
            </Box>
          );
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            variant="standard"
            placeholder={value.length === 0 ? t('conversation.tags.placeholder') : undefined}
            slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'aria-label': t('conversation.tags.label') } }}
          />
        )}
        data-testid="tag-picker"
      />
    </Box>
  );
}
