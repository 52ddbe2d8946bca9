import Search from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** Width from the small breakpoint up (full width below). */
  width?: number;
}

/** The list pages' search box; the page debounces what it sends (SPEC 9: 500 ms). */
export function SearchField({ value, onChange, placeholder, width = 260 }: SearchFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      placeholder={placeholder ?? t('common.search')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ width: { xs: '100%', sm: width } }}
      slotProps={{
        htmlInput: { 'aria-label': placeholder ?? t('common.search'), type: 'search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
