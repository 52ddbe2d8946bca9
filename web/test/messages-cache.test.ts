/** The conversation's message cache under out-of-order copies (SPEC 4 "Message ack"). */
import type { Message } from '@conversa/functions/contracts/messages';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { type MessagePage, putLiveMessage, putMessage, ticketMessagesKey } from '../src/features/messages/api/messages.ts';
import { heldReads } from './support/held-reads.ts';

const message = (overrides: Partial<Message>): Message =>
  ({
    id: 'm1',
    ticketId: 7,
    body: 'Olá',
    fromMe: true,
    ack: 0,
    pending: true,
    isDeleted: false,
    isEdited: false,
    createdAt: '2030-01-01T10:00:00.000Z',
    updatedAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  }) as Message;

function cacheWith(messages: Message[]) {
  const client = new QueryClient();
  client.setQueryData<InfiniteData<MessagePage>>(ticketMessagesKey(7), { pages: [{ messages, hasMore: false }], pageParams: [{}] });
  const read = () => client.getQueryData<InfiniteData<MessagePage>>(ticketMessagesKey(7))?.pages[0]?.messages ?? [];
  return { client, read };
}

describe('putMessage', () => {
  it("keeps the socket's ack when the send's HTTP answer (ack 0) lands after it", () => {
    // Prepare: the ack update arrived first.
    const { client, read } = cacheWith([message({ ack: 2, pending: false, updatedAt: '2030-01-01T10:00:01.000Z' })]);
    // Act: the POST answer, written when the message was stored.
    putMessage(client, message({}));
    // Assess
    expect(read()).toMatchObject([{ id: 'm1', ack: 2, pending: false }]);
  });

  it('takes a later change (an edit) and never lowers the ack', () => {
    const { client, read } = cacheWith([message({ ack: 3, pending: false, updatedAt: '2030-01-01T10:00:02.000Z' })]);
    putMessage(client, message({ ack: 1, pending: false, isDeleted: true, updatedAt: '2030-01-01T10:00:03.000Z' }));
    expect(read()).toMatchObject([{ id: 'm1', ack: 3, isDeleted: true }]);
  });

  it('replaces the local pending copy with the stored one', () => {
    const { client, read } = cacheWith([message({ id: 'local-1' })]);
    putMessage(client, message({ id: 'm9', ack: 1, pending: false }));
    expect(read().map((m) => m.id)).toEqual(['m9']);
  });
});

describe('putLiveMessage', () => {
  it('a message that arrives while the conversation is being read again is not lost when the older read answers', async () => {
    // Prepare: the thread holds one message; a read of it is in flight when the server stores a second.
    const first = message({ id: 'm1', fromMe: false, pending: false, ack: 0 });
    const second = message({ id: 'm2', fromMe: false, pending: false, ack: 0, createdAt: '2030-01-01T10:01:00.000Z' });
    const stored = [first];
    const thread = heldReads(ticketMessagesKey(7), stored, (messages) => ({ messages, hasMore: false }) as MessagePage);
    await thread.loadThenReadAgain();
    stored.push(second);
    // Act: the event, then the old read's answer (without the second message)
    putLiveMessage(thread.client, second);
    thread.answer();
    // Assess: a read started after the event answers, and the thread has both
    await vi.waitFor(() => expect(thread.reads).toHaveLength(1));
    thread.answer();
    await vi.waitFor(() => expect(thread.firstPage()?.messages.map((m) => m.id)).toEqual(['m1', 'm2']));
    thread.unsubscribe();
  });
});
