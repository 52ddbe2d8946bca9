import type { Ticket } from '@conversa/functions/contracts/tickets';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SnoozeOutlined from '@mui/icons-material/SnoozeOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import {
  Avatar,
  Badge,
  Box,
  Button,
  Checkbox,
  Chip,
  IconButton,
  ListItemButton,
  Stack,
  type Theme,
  Tooltip,
  Typography,
  useTheme,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatDayTime, formatListTime } from '../../../lib/dates.ts';
import { useDraftText } from '../../../lib/drafts.ts';
import { asSeen } from '../../../lib/reading-now.ts';
import { lastMessagePreview } from '../../../lib/ticket-preview.ts';
import { SlaChip } from './sla-chip.tsx';

/** SPEC 2: HH:mm when the ticket moved today, otherwise the day (in the language's order, lib/dates), on the company's clock. */
export const rowTime = (iso: string) => formatListTime(iso);

/** Readable text on a queue's or tag's colour; a colour MUI cannot parse falls back to the theme's text. */
export function contrastOn(theme: Theme, color: string): string {
  try {
    return theme.palette.getContrastText(color);
  } catch {
    return theme.palette.text.primary;
  }
}

interface TicketRowProps {
  ticket: Ticket;
  selected: boolean;
  admin: boolean;
  accepting: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onSpy: (ticket: Ticket) => void;
  /** The row's checkbox for bulk actions (issue 22 §5); absent = no checkbox. Shift-click selects a range. */
  checked?: boolean;
  onCheck?: (ticket: Ticket, range: boolean) => void;
}

/**
 * SPEC 2 "Ticket row". Pending tickets are accepted with the button, not opened: a click shows the
 * conversation read-only with Accept at hand (onSpy), so it never does nothing.
 */
export function TicketRow({ ticket, selected, admin, accepting, onOpen, onAccept, onSpy, checked, onCheck }: TicketRowProps) {
  const { t } = useTranslation();
  const pending = ticket.status === 'pending';
  // Counted as this screen sees it: a list read that left before the open conversation's read
  // answers with the server's count, which must not flash on the row being read.
  const unread = asSeen(ticket).unreadMessages;
  // What the user began to write here and left (lib/drafts.ts), in place of the last message, as chat
  // apps show it; not on the row of the conversation being written in.
  const draft = useDraftText(useAuth().user?.id, ticket.id);
  const showDraft = draft.trim() !== '' && !selected;
  const queueColor = ticket.queue?.color ?? '#7c7c7c';
  const small = { height: 20, fontSize: 11 };
  const isDark = useTheme().palette.mode === 'dark';
  return (
    <ListItemButton
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      selected={selected}
      onClick={() => (pending ? onSpy(ticket) : onOpen(ticket))}
      sx={{
        alignItems: 'flex-start',
        gap: 1.5,
        py: 1,
        pl: 1.5,
        borderLeft: 6,
        borderLeftColor: queueColor,
        borderBottom: 1,
        borderBottomColor: 'divider',
      }}
    >
      {onCheck && (
        <Checkbox
          size="small"
          checked={Boolean(checked)}
          onChange={() => undefined}
          data-testid="ticket-row-check"
          slotProps={{ input: { 'aria-label': t('bulk.select', { name: ticket.contact.name }) } }}
          // The row's own click opens the ticket: the checkbox only selects (shift: the range from the last one).
          onClick={(event) => {
            event.stopPropagation();
            onCheck(ticket, event.shiftKey);
          }}
          sx={{ p: 0.5, mt: 0.75, ml: -0.75, mr: -0.75 }}
        />
      )}
      <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name} sx={{ mt: 0.5 }}>
        {ticket.contact.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Typography variant="subtitle2" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {ticket.contact.name}
          </Typography>
          {(ticket.chatbot || ticket.useIntegration) && (
            <Tooltip title={t('inbox.chatbot')}>
              <SmartToyOutlined fontSize="small" color="action" data-testid="chatbot-icon" />
            </Tooltip>
          )}
          {admin && (
            // Not interactive and above the icon: after the dialog closes, focus returns to the icon and
            // opens the tooltip, which must not cover (and swallow clicks on) the row's Accept.
            <Tooltip title={t('inbox.spy')} placement="top" disableInteractive>
              <IconButton
                size="small"
                aria-label={t('inbox.spy')}
                onClick={(event) => {
                  event.stopPropagation();
                  onSpy(ticket);
                }}
                sx={{ p: 0.25 }}
              >
                <VisibilityOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          <Typography variant="caption" sx={{ color: unread > 0 ? 'success.main' : 'text.secondary', flexShrink: 0 }}>
            {rowTime(ticket.updatedAt)}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography
            variant="body2"
            noWrap
            data-testid={showDraft ? 'row-draft' : undefined}
            sx={{
              color: 'text.secondary',
              flex: 1,
              minWidth: 0,
              fontStyle: ticket.lastMessageDeleted && !showDraft ? 'italic' : undefined,
            }}
          >
            {showDraft ? (
              <>
                <Box component="span" sx={{ color: 'success.main', fontWeight: 600 }}>
                  {t('inbox.draft')}:
                </Box>{' '}
                {draft}
              </>
            ) : (
              lastMessagePreview(ticket, t)
            )}
          </Typography>
          {unread > 0 && <Badge badgeContent={unread} color="success" max={99} sx={{ mr: 1.5 }} data-testid="unread-badge" />}
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}>
          <SlaChip sla={ticket.sla} />
          {ticket.whatsapp?.name && <Chip size="small" variant="outlined" label={ticket.whatsapp.name} sx={small} />}
          {ticket.user?.name && (
            <Chip
              size="small"
              variant="outlined"
              color="primary"
              label={ticket.user.name}
              // The brand teal reads at 3:1 on the dark paper; its light tone passes WCAG AA (4.5:1).
              sx={{ ...small, ...(isDark ? { color: 'primary.light', borderColor: 'primary.light' } : {}) }}
            />
          )}
          <Chip
            size="small"
            label={ticket.queue?.name ?? t('inbox.noQueue')}
            sx={{ ...small, bgcolor: queueColor, color: (theme) => contrastOn(theme, queueColor) }}
          />
          {ticket.tags.map((tag) => (
            <Chip
              key={tag.id}
              size="small"
              label={tag.name}
              sx={{ ...small, bgcolor: tag.color, color: (theme) => contrastOn(theme, tag.color) }}
            />
          ))}
          {ticket.snoozedUntil && (
            <Chip
              size="small"
              variant="outlined"
              icon={<SnoozeOutlined />}
              label={t('snooze.snoozedUntil', { when: formatDayTime(ticket.snoozedUntil) })}
              sx={small}
              data-testid="snoozed-chip"
            />
          )}
          {pending && (
            <Button
              size="small"
              variant="contained"
              color="success"
              loading={accepting}
              onClick={(event) => {
                event.stopPropagation();
                onAccept(ticket);
              }}
              sx={{ ml: 'auto', py: 0, minHeight: 24 }}
            >
              {t('inbox.accept')}
            </Button>
          )}
        </Stack>
      </Box>
    </ListItemButton>
  );
}
