import { List, ListItemButton, ListItemText, Paper } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { QuickMessageOption } from '../../../lib/lookups/quick-messages.ts';
import { quickMessageLabel } from '../api/quick-messages.ts';

interface QuickReplySuggestionsProps {
  options: QuickMessageOption[];
  selected: number;
  onPick: (option: QuickMessageOption) => void;
}

/** The quick replies a `/` offers, above the text field; the highlighted one is kept in view. */
export function QuickReplySuggestions({ options, selected, onPick }: QuickReplySuggestionsProps) {
  const { t } = useTranslation();
  return (
    <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: 240, overflowY: 'auto', zIndex: 2 }}>
      <List dense aria-label={t('conversation.input.quickReplies')} data-testid="quick-reply-suggestions">
        {options.map((option, index) => (
          <ListItemButton
            key={option.id ?? option.shortcode}
            selected={index === selected}
            ref={index === selected ? (item: HTMLDivElement | null) => item?.scrollIntoView({ block: 'nearest' }) : undefined}
            // Keeps the focus (and the caret) in the text field.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(option)}
          >
            <ListItemText primary={quickMessageLabel(option)} />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
}
