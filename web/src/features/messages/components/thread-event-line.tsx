import type { ThreadEvent } from '@conversa/functions/contracts/ticket-history';
import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDayTime, formatTime } from '../../../lib/dates.ts';

/** Where a transfer sent the ticket: the attendant, the queue, or both. */
const targetOf = (event: ThreadEvent): string =>
  event.user && event.queue ? `${event.user.name} (${event.queue.name})` : (event.user?.name ?? event.queue?.name ?? '');

/**
 * One line of the ticket's activity (issue 25 item 6): who did what and when, centred and muted
 * between the messages. It is the inbox's own record; the contact never sees it.
 */
export function ThreadEventLine({ event }: { event: ThreadEvent }) {
  const { t } = useTranslation();
  // Nobody reopened it by hand: a message on the closed ticket (the contact's, a schedule's) did.
  const key = event.kind === 'reopened' && !event.actor ? 'reopenedByMessage' : event.kind;
  // The snooze lines (issue 22 §5) live with the snooze's words; `detail` is until when.
  const snooze = event.kind === 'snoozed' || event.kind === 'unsnoozed';
  const text = t(snooze ? `snooze.events.${event.kind}` : `conversation.events.${key}`, {
    when: snooze && event.detail ? formatDayTime(event.detail) : '',
    actor: event.actor?.name || t('conversation.events.system'),
    queue: event.queue?.name ?? '',
    target: targetOf(event),
    rating: event.rating ?? '',
    detail: event.detail ?? '',
  });
  return (
    <Box data-testid="thread-event" data-kind={event.kind} sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 0.5 }}>
      <Typography
        variant="caption"
        sx={{
          color: event.kind === 'botFailed' ? 'error.main' : 'text.secondary',
          bgcolor: 'action.hover',
          borderRadius: 1,
          px: 1,
          py: 0.25,
          textAlign: 'center',
          maxWidth: 'min(600px, 85%)',
        }}
      >
        {text} · {formatTime(event.at)}
      </Typography>
    </Box>
  );
}
