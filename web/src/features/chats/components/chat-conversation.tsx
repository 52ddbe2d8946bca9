import ArrowBack from '@mui/icons-material/ArrowBack';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Send from '@mui/icons-material/Send';
import { Box, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { isAdmin, useAuth } from '../../../lib/auth/auth-provider.tsx';
import { formatDayTime } from '../../../lib/dates.ts';
import { type ShownChatMessage, unreadsOf } from '../../../lib/lookups/chats.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { nextTempId, useChat, useChatMessages, useMarkChatRead, useSendChatMessage } from '../api/chats.ts';

/** SPEC 2: older messages load when the list is scrolled this near its top. */
const LOAD_OLDER_PX = 100;

interface ChatConversationProps {
  chatId: number;
  onBack: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

function MessageBubble({ message, own }: { message: ShownChatMessage; own: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack sx={{ alignItems: own ? 'flex-end' : 'flex-start', mb: 1 }} data-testid="chat-message" data-own={own}>
      <Paper
        elevation={0}
        sx={{
          px: 1.5,
          py: 1,
          maxWidth: '75%',
          bgcolor: own ? 'primary.main' : 'action.hover',
          color: own ? 'primary.contrastText' : 'text.primary',
          opacity: message.isTemp ? 0.7 : 1,
        }}
      >
        {!own && (
          <Typography variant="caption" sx={{ fontWeight: 700, display: 'block' }}>
            {message.sender.name}
          </Typography>
        )}
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message.message}
        </Typography>
        <Typography variant="caption" sx={{ display: 'block', textAlign: 'right', opacity: 0.8 }}>
          {message.isTemp ? <span data-testid="chat-message-sending">{t('chats.sending')}</span> : formatDayTime(message.createdAt)}
        </Typography>
      </Paper>
    </Stack>
  );
}

/** SPEC 2 "Internal chat": the open conversation. */
export function ChatConversation({ chatId, onBack, onEdit, onDelete }: ChatConversationProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const chat = useChat(chatId);
  const messages = useChatMessages(chatId);
  const send = useSendChatMessage(chatId);
  const markRead = useMarkChatRead();
  const showError = useErrorToast();
  const [draft, setDraft] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  /** Distance from the bottom before an older page was added, to keep the reader where they were. */
  const fromBottom = useRef<number | undefined>(undefined);

  const ordered = [...(messages.data?.pages.flatMap((page) => page.records) ?? [])].reverse();
  const newestId = ordered.at(-1)?.id;
  const unreads = chat.data ? unreadsOf(chat.data, user?.id) : 0;
  const canManage = Boolean(chat.data && (chat.data.ownerId === user?.id || isAdmin(user)));

  // SPEC 2: opening a chat with unread messages marks it read (and so does a message arriving while it is open).
  const { mutate: markChatRead, isPending: marking } = markRead;
  useEffect(() => {
    if (unreads > 0 && !marking) markChatRead(chatId);
  }, [unreads, chatId, markChatRead, marking]);

  // A new message at the bottom (or the first page) scrolls down; an older page keeps the reader's place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when messages are added, which the box does not show as a dependency
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    if (fromBottom.current !== undefined) {
      box.scrollTop = box.scrollHeight - fromBottom.current;
      fromBottom.current = undefined;
    } else box.scrollTop = box.scrollHeight;
  }, [newestId, ordered.length]);

  const onScroll = () => {
    const box = scroller.current;
    if (!box || box.scrollTop > LOAD_OLDER_PX || !messages.hasNextPage || messages.isFetchingNextPage) return;
    fromBottom.current = box.scrollHeight - box.scrollTop;
    void messages.fetchNextPage();
  };

  const submit = () => {
    const message = draft.trim();
    if (!message) return;
    setDraft('');
    send.mutate({ message, tempId: nextTempId() }, { onError: showError });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // SPEC 2: Enter sends; Shift+Enter starts a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <Stack sx={{ height: '100%', minHeight: 0 }} data-testid="chat-conversation">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', px: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <IconButton onClick={onBack} aria-label={t('chats.back')} sx={{ display: { md: 'none' } }}>
          <ArrowBack />
        </IconButton>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="subtitle1" noWrap sx={{ fontWeight: 600 }} data-testid="chat-title-shown">
            {chat.data?.title ?? ''}
          </Typography>
          <Typography variant="caption" noWrap sx={{ color: 'text.secondary', display: 'block' }}>
            {chat.data?.users.map((member) => member.user.name).join(', ')}
          </Typography>
        </Box>
        {canManage && (
          <>
            <Tooltip title={t('chats.edit')}>
              <IconButton onClick={onEdit} aria-label={t('chats.edit')}>
                <EditOutlined />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('chats.delete')}>
              <IconButton onClick={onDelete} aria-label={t('chats.delete')}>
                <DeleteOutline />
              </IconButton>
            </Tooltip>
          </>
        )}
      </Stack>
      <Box
        ref={scroller}
        onScroll={onScroll}
        sx={{ flexGrow: 1, overflowY: 'auto', px: 2, py: 1, minHeight: 0 }}
        data-testid="chat-messages"
      >
        {messages.isFetchingNextPage && (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', py: 1, alignItems: 'center' }}>
            <Spinner size={16} />
            <Typography variant="caption">{t('chats.loadingOlder')}</Typography>
          </Stack>
        )}
        {messages.isPending ? (
          <Stack sx={{ alignItems: 'center', py: 4 }}>
            <Spinner size={24} />
          </Stack>
        ) : ordered.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', py: 4 }}>
            {t('chats.noMessages')}
          </Typography>
        ) : (
          ordered.map((message) => <MessageBubble key={message.id} message={message} own={message.senderId === user?.id} />)
        )}
      </Box>
      <Stack direction="row" spacing={1} sx={{ p: 1, borderTop: 1, borderColor: 'divider', alignItems: 'flex-end' }}>
        <TextField
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('chats.placeholder')}
          multiline
          maxRows={5}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { maxLength: 5000, 'aria-label': t('chats.placeholder'), 'data-testid': 'chat-input' } }}
        />
        <IconButton color="primary" onClick={submit} disabled={!draft.trim()} aria-label={t('chats.send')}>
          <Send />
        </IconButton>
      </Stack>
    </Stack>
  );
}
