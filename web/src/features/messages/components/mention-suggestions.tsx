import { List, ListItemButton, ListItemText, Paper } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Colleague } from '../api/mentions.ts';

interface MentionSuggestionsProps {
  options: Colleague[];
  selected: number;
  onPick: (colleague: Colleague) => void;
}

/** The colleagues an `@` in a private note may name, above the text field. */
export function MentionSuggestions({ options, selected, onPick }: MentionSuggestionsProps) {
  const { t } = useTranslation();
  return (
    <Paper elevation={4} sx={{ position: 'absolute', bottom: '100%', left: 8, maxWidth: 360, width: 'calc(100% - 16px)', zIndex: 2 }}>
      <List dense aria-label={t('mentions.suggestions')} data-testid="mention-suggestions">
        {options.length === 0 ? (
          <ListItemText sx={{ px: 2, py: 1, color: 'text.secondary' }} primary={t('mentions.noMatch')} />
        ) : (
          options.map((colleague, index) => (
            <ListItemButton
              key={colleague.id}
              selected={index === selected}
              // Keeps the focus (and the caret) in the text field.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(colleague)}
            >
              <ListItemText primary={`@${colleague.name}`} />
            </ListItemButton>
          ))
        )}
      </List>
    </Paper>
  );
}
