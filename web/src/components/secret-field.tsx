import ContentCopy from '@mui/icons-material/ContentCopy';
import { IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toast } from '../lib/toast.ts';

/**
 * A secret shown to be copied (a webhook's or a queue integration's signing secret): read-only,
 * monospace, with a copy button that says whether the copy worked.
 */
export function SecretField({
  label,
  value,
  helperText,
  testId,
  copyLabel,
  copiedMessage,
}: {
  label: string;
  value: string;
  helperText?: string;
  testId: string;
  copyLabel: string;
  copiedMessage: string;
}) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(copiedMessage);
    } catch {
      toast.error(t('errors.generic'));
    }
  };
  return (
    <TextField
      label={label}
      value={value}
      helperText={helperText}
      fullWidth
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId, style: { fontFamily: 'monospace', fontSize: 13 } },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton aria-label={copyLabel} onClick={() => void copy()} edge="end">
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
