import type { Chat } from '@conversa/functions/contracts/chats';
import Add from '@mui/icons-material/Add';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useChat, useDeleteChat } from '../api/chats.ts';
import { ChatConversation } from './chat-conversation.tsx';
import { ChatDialog } from './chat-dialog.tsx';
import { ChatList } from './chat-list.tsx';

/**
 * SPEC 2 "Internal chat" (/chats/:id?): the chats on the left, the open one on the right, driven by
 * the URL. Under the md breakpoint one pane shows at a time.
 */
export function ChatsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const parsed = Number(params.id);
  const chatId = Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const [editing, setEditing] = useState<{ chat: Chat | undefined } | undefined>(undefined);
  const open = useChat(chatId);
  const remove = useDeleteChat();
  const deletion = useConfirmedDelete(async (chat: Chat) => {
    await remove.mutateAsync(chat.id);
    navigate('/chats');
  }, t('chats.deleted'));

  return (
    <Stack sx={{ height: { xs: 'calc(100dvh - 88px)', sm: 'calc(100dvh - 112px)' }, minHeight: 400 }}>
      <Paper variant="outlined" sx={{ display: 'flex', flexGrow: 1, minHeight: 0, overflow: 'hidden' }}>
        <Stack
          sx={{
            width: { xs: '100%', md: 340 },
            flexShrink: 0,
            borderRight: { md: 1 },
            borderColor: { md: 'divider' },
            display: { xs: chatId ? 'none' : 'flex', md: 'flex' },
            minHeight: 0,
          }}
        >
          <Stack spacing={1} sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
            <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
              <Typography variant="h6" component="h1">
                {t('chats.title')}
              </Typography>
              <Button
                variant="contained"
                size="small"
                startIcon={<Add />}
                onClick={() => setEditing({ chat: undefined })}
                data-testid="chat-add"
              >
                {t('chats.add')}
              </Button>
            </Stack>
            <SearchField value={search} onChange={setSearch} width={316} />
          </Stack>
          <ChatList searchParam={searchParam} selectedId={chatId} onSelect={(chat) => navigate(`/chats/${chat.id}`)} />
        </Stack>
        <Box sx={{ flexGrow: 1, minWidth: 0, display: { xs: chatId ? 'block' : 'none', md: 'block' } }}>
          {chatId ? (
            <ChatConversation
              key={chatId}
              chatId={chatId}
              onBack={() => navigate('/chats')}
              onEdit={() => setEditing({ chat: open.data })}
              onDelete={() => open.data && deletion.ask(open.data)}
            />
          ) : (
            <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center', color: 'text.secondary', p: 3 }}>
              <ForumOutlined sx={{ fontSize: 48, mb: 1 }} />
              <Typography variant="body2">{t('chats.pick')}</Typography>
            </Stack>
          )}
        </Box>
      </Paper>
      {editing && (
        <ChatDialog
          chat={editing.chat}
          onClose={() => setEditing(undefined)}
          onSaved={(chat) => {
            setEditing(undefined);
            navigate(`/chats/${chat.id}`);
          }}
        />
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('chats.deleteTitle', { title: deletion.target?.title ?? '' })}
        message={t('chats.deleteMessage')}
      />
    </Stack>
  );
}
