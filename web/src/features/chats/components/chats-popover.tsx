import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { Badge, Button, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useCompanyPlan } from '../../../lib/auth/session-api.ts';
import { unreadsOf, useLatestChats } from '../../../lib/lookups/chats.ts';
import { chatTime } from './chat-time.ts';

/**
 * SPEC 2 "Top bar": the internal chat popover with the latest chats. Its list (`chatKeys.list()`) is
 * also what the side menu's dot reads, so loading it here lights both; events keep it fresh.
 */
export function ChatsPopover() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const plan = useCompanyPlan(user?.companyId);
  const enabled = Boolean(plan.data?.useInternalChat);
  const latest = useLatestChats(enabled);
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!enabled) return null;
  const records = latest.data?.records ?? [];
  const unread = (latest.data?.unreadChats ?? 0) > 0;
  const open = (path: string) => {
    setAnchor(null);
    navigate(path);
  };
  return (
    <>
      <Tooltip title={t('chats.popoverTitle')}>
        <IconButton
          color="inherit"
          aria-label={t('chats.popoverTitle')}
          data-testid="chats-button"
          data-unread={unread}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge variant="dot" color="error" invisible={!unread}>
            <ForumOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 'min(360px, calc(100vw - 24px))', maxHeight: 440 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 0.5 }}>
          {t('chats.popoverTitle')}
        </Typography>
        {records.length === 0 ? (
          <Typography variant="body2" sx={{ px: 2, pb: 1, color: 'text.secondary' }}>
            {t('chats.popoverEmpty')}
          </Typography>
        ) : (
          <List dense data-testid="chats-popover-list">
            {records.map((chat) => {
              const unreads = unreadsOf(chat, user?.id);
              return (
                <ListItemButton key={chat.id} onClick={() => open(`/chats/${chat.id}`)} data-testid="chats-popover-item">
                  <ListItemText
                    primary={chat.title}
                    secondary={chat.lastMessage || t('chats.noMessages')}
                    slotProps={{ primary: { noWrap: true, sx: { fontWeight: unreads ? 700 : 500 } }, secondary: { noWrap: true } }}
                  />
                  <Typography variant="caption" sx={{ ml: 1, color: 'text.secondary', flexShrink: 0 }}>
                    {chatTime(chat.updatedAt)}
                  </Typography>
                  {unreads > 0 && <Badge color="secondary" badgeContent={unreads} sx={{ ml: 2, mr: 1 }} />}
                </ListItemButton>
              );
            })}
          </List>
        )}
        <Button fullWidth onClick={() => open('/chats')} sx={{ borderRadius: 0 }}>
          {t('chats.seeAll')}
        </Button>
      </Popover>
    </>
  );
}
