import type { Chat } from '@conversa/functions/contracts/chats';
import { Badge, Box, List, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { unreadsOf } from '../../../lib/lookups/chats.ts';
import { useChatsPage } from '../api/chats.ts';
import { chatTime } from './chat-time.ts';

const LOAD_MORE_PX = 100;

interface ChatListProps {
  searchParam: string;
  selectedId: number | undefined;
  onSelect: (chat: Chat) => void;
}

/** The chats the user is in, most recent first; the next page loads near the bottom. */
export function ChatList({ searchParam, selectedId, onSelect }: ChatListProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const chats = useChatsPage(searchParam);
  const records = chats.data?.pages.flatMap((page) => page.records) ?? [];
  const onScroll = (event: React.UIEvent<HTMLElement>) => {
    const box = event.currentTarget;
    if (box.scrollHeight - box.scrollTop - box.clientHeight < LOAD_MORE_PX && chats.hasNextPage && !chats.isFetchingNextPage)
      void chats.fetchNextPage();
  };
  if (chats.isPending)
    return (
      <Stack sx={{ alignItems: 'center', py: 4 }}>
        <Spinner size={24} />
      </Stack>
    );
  if (!records.length)
    return (
      <Box sx={{ p: 3, textAlign: 'center' }}>
        <Typography variant="subtitle1">{t('chats.emptyTitle')}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('chats.empty')}
        </Typography>
      </Box>
    );
  return (
    <List dense onScroll={onScroll} sx={{ overflowY: 'auto', flexGrow: 1, minHeight: 0 }} data-testid="chat-list">
      {records.map((chat) => {
        const unreads = unreadsOf(chat, user?.id);
        return (
          <ListItemButton
            key={chat.id}
            selected={chat.id === selectedId}
            onClick={() => onSelect(chat)}
            data-testid="chat-list-item"
            data-unreads={unreads}
          >
            <ListItemText
              primary={chat.title}
              secondary={chat.lastMessage || t('chats.members', { count: chat.users.length })}
              slotProps={{ primary: { noWrap: true, sx: { fontWeight: unreads ? 700 : 500 } }, secondary: { noWrap: true } }}
            />
            <Stack sx={{ alignItems: 'flex-end', ml: 1, flexShrink: 0 }}>
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {chatTime(chat.updatedAt)}
              </Typography>
              {unreads > 0 && (
                <Badge
                  color="secondary"
                  badgeContent={unreads}
                  sx={{ mt: 1.5, mr: 1 }}
                  aria-label={t('chats.unread', { count: unreads })}
                />
              )}
            </Stack>
          </ListItemButton>
        );
      })}
    </List>
  );
}
