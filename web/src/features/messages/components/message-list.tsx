import type { Message } from '@conversa/functions/contracts/messages';
import type { ThreadEvent } from '@conversa/functions/contracts/ticket-history';
import { Box, Chip, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { companyDay } from '../../../lib/company-time.ts';
import { formatDay } from '../../../lib/dates.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { deleteMessage, flattenEvents, flattenMessages, putMessage, retryMessage, useMessages } from '../api/messages.ts';
import { useMessagesLive } from '../hooks/use-messages-live.ts';
import { MessageBubble } from './message-bubble.tsx';
import { ThreadEventLine } from './thread-event-line.tsx';

/** SPEC 9: older messages load when the list is scrolled to 50 px from the top. */
const LOAD_OLDER_PX = 50;
/** A new message scrolls the list down only when the reader is already near the bottom. */
const STICK_TO_BOTTOM_PX = 150;

type Entry = { kind: 'message'; at: string; message: Message } | { kind: 'event'; at: string; event: ThreadEvent };

/** Messages and activity lines in time order (a line after the messages of its instant). */
function timeline(messages: Message[], events: ThreadEvent[]): Entry[] {
  const entries: Entry[] = messages.map((message) => ({ kind: 'message', at: message.createdAt, message }));
  for (const event of events) entries.push({ kind: 'event', at: event.at, event });
  // Stable: messages keep their order, and a line follows what happened up to its time.
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

interface MessageListProps {
  ticketId: number;
  isGroup?: boolean;
  /** The spy dialog shows the conversation without reply or delete. */
  readOnly?: boolean;
  onReply?: (message: Message) => void;
}

export function MessageList({ ticketId, isGroup, readOnly, onReply }: MessageListProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const showError = useErrorToast();
  const query = useMessages(ticketId);
  useMessagesLive(ticketId, !readOnly);
  const messages = flattenMessages(query.data);
  const entries = timeline(messages, flattenEvents(query.data));
  const scroller = useRef<HTMLDivElement>(null);
  /** Distance from the bottom kept while older messages are prepended. */
  const keepFromBottom = useRef<number | null>(null);
  const lastSeen = useRef<string | undefined>(undefined);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [busy, setBusy] = useState(false);
  const [retrying, setRetrying] = useState<ReadonlySet<string>>(new Set());
  const lastId = messages.at(-1)?.id;

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box || messages.length === 0) return;
    if (keepFromBottom.current !== null && !query.isFetchingNextPage) {
      box.scrollTop = box.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    }
    if (lastId !== lastSeen.current) {
      const first = lastSeen.current === undefined;
      const mine = messages.at(-1)?.fromMe;
      lastSeen.current = lastId;
      const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < STICK_TO_BOTTOM_PX + box.clientHeight / 2;
      if (first || mine || nearBottom) box.scrollTop = box.scrollHeight;
    }
  });

  const onScroll = () => {
    const box = scroller.current;
    if (!box || box.scrollTop > LOAD_OLDER_PX || !query.hasNextPage || query.isFetchingNextPage) return;
    keepFromBottom.current = box.scrollHeight - box.scrollTop;
    void query.fetchNextPage();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const deleted = await deleteMessage(deleting.id);
      putMessage(queryClient, deleted?.id ? deleted : { ...deleting, isDeleted: true });
      setDeleting(null);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  /** The same send path again, on the server: a second click while one is in flight is ignored there too. */
  const retry = async (message: Message) => {
    setRetrying((ids) => new Set(ids).add(message.id));
    try {
      putMessage(queryClient, await retryMessage(message.id));
    } catch (error) {
      showError(error);
    } finally {
      setRetrying((ids) => {
        const next = new Set(ids);
        next.delete(message.id);
        return next;
      });
    }
  };

  return (
    <Box
      ref={scroller}
      onScroll={onScroll}
      data-testid="message-list"
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', py: 1, bgcolor: 'background.default' }}
    >
      {(query.isPending || query.isFetchingNextPage) && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
          <Spinner size={24} />
        </Box>
      )}
      {!query.isPending && messages.length === 0 && (
        <Typography sx={{ textAlign: 'center', color: 'text.secondary', py: 4 }}>{t('conversation.messages.noMessages')}</Typography>
      )}
      {entries.map((entry, index) => {
        const previous = entries[index - 1];
        // Days on the company's clock (lib/company-time.ts), as the times in the bubbles.
        const newDay = !previous || companyDay(previous.at) !== companyDay(entry.at);
        return (
          <Fragment key={entry.kind === 'message' ? entry.message.id : `event:${entry.event.id}`}>
            {newDay && (
              <Box sx={{ display: 'flex', justifyContent: 'center', my: 1 }} data-testid="date-separator">
                <Chip size="small" label={formatDay(companyDay(entry.at))} />
              </Box>
            )}
            {entry.kind === 'event' ? (
              <ThreadEventLine event={entry.event} />
            ) : (
              <MessageBubble
                message={entry.message}
                showAuthor={isGroup}
                onReply={readOnly ? undefined : onReply}
                onDelete={readOnly ? undefined : setDeleting}
                onRetry={readOnly ? undefined : retry}
                retrying={retrying.has(entry.message.id)}
              />
            )}
          </Fragment>
        );
      })}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('conversation.messages.deleteTitle')}
        message={t('conversation.messages.deleteMessage')}
        busy={busy}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
