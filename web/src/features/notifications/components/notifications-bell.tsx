import AlternateEmail from '@mui/icons-material/AlternateEmail';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { Avatar, Badge, IconButton, List, ListItemAvatar, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { lastMessagePreview } from '../../../lib/ticket-preview.ts';
import { askNotificationPermission } from '../api/alert-sound.ts';
import { useMentions } from '../hooks/use-mentions.ts';
import { useSlaBreaches } from '../hooks/use-sla-breaches.ts';
import { useUnreadNotifications } from '../hooks/use-unread-notifications.ts';

/**
 * SPEC 2 "Top bar": the unread-ticket bell with its count and a popover listing them, with the
 * colleagues' unread mentions (issue 22 §6) and breached service levels (§3) above them.
 */
export function NotificationsBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tickets = useUnreadNotifications();
  const breaches = useSlaBreaches();
  const mentions = useMentions();
  const count = tickets.length + breaches.length + mentions.length;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('notifications.title')}>
        <IconButton
          color="inherit"
          // The count is part of the name: the visible badge must be in what a screen reader says (axe).
          aria-label={count > 0 ? `${t('notifications.title')} (${count})` : t('notifications.title')}
          data-testid="notifications-bell"
          data-count={count}
          onClick={(event) => {
            // Asking on a click, not on load: browsers ignore (or punish) unprompted permission requests.
            askNotificationPermission();
            setAnchor(event.currentTarget);
          }}
        >
          {count > 0 ? (
            <Badge badgeContent={count} color="error" max={99}>
              <NotificationsOutlined />
            </Badge>
          ) : (
            <NotificationsOutlined />
          )}
        </IconButton>
      </Tooltip>
      <Popover
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 340, maxHeight: 420 } } }}
      >
        {mentions.length > 0 && (
          <>
            <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5, color: 'primary.main' }}>
              {t('mentions.title')}
            </Typography>
            <List dense data-testid="mention-list">
              {mentions.map((mention) => (
                <ListItemButton
                  key={mention.id}
                  data-testid="mention-notification"
                  onClick={() => {
                    setAnchor(null);
                    navigate(`/tickets/${mention.ticketUuid}`);
                  }}
                >
                  <ListItemAvatar>
                    <Avatar alt={mention.authorName}>
                      <AlternateEmail fontSize="small" />
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={`${t('mentions.item', { author: mention.authorName })} · ${mention.contactName}`}
                    secondary={mention.excerpt}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              ))}
            </List>
          </>
        )}
        {breaches.length > 0 && (
          <>
            <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5, color: 'error.main' }}>
              {t('sla.notification.title')}
            </Typography>
            <List dense data-testid="sla-breach-list">
              {breaches.map((ticket) => (
                <ListItemButton
                  key={ticket.id}
                  data-testid="sla-breach-notification"
                  onClick={() => {
                    setAnchor(null);
                    navigate(`/tickets/${ticket.uuid}`);
                  }}
                >
                  <ListItemAvatar>
                    <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
                      {ticket.contact.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                  </ListItemAvatar>
                  <ListItemText
                    primary={ticket.contact.name}
                    // The target still open is the one late; with the first response given, the resolution.
                    secondary={t(
                      ticket.sla?.resolutionDueAt && ticket.sla.nextDueAt === ticket.sla.resolutionDueAt
                        ? 'sla.notification.resolution'
                        : 'sla.notification.firstResponse',
                    )}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              ))}
            </List>
          </>
        )}
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
          {t('notifications.open')}
        </Typography>
        {tickets.length === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 2, color: 'text.secondary' }}>
            {t('notifications.empty')}
          </Typography>
        ) : (
          <List dense data-testid="notifications-list">
            {tickets.map((ticket) => (
              <ListItemButton
                key={ticket.id}
                data-testid="notification"
                onClick={() => {
                  setAnchor(null);
                  navigate(`/tickets/${ticket.uuid}`);
                }}
              >
                <ListItemAvatar>
                  <Badge badgeContent={ticket.unreadMessages} color="success" max={99}>
                    <Avatar src={ticket.contact.profilePicUrl || undefined} alt={ticket.contact.name}>
                      {ticket.contact.name.slice(0, 1).toUpperCase()}
                    </Avatar>
                  </Badge>
                </ListItemAvatar>
                <ListItemText
                  primary={ticket.contact.name}
                  secondary={lastMessagePreview(ticket, t)}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
