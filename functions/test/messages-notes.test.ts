/**
 * Private notes in the thread (issue 22 §6): POST /messages/{ticketId} with `isPrivate: true` over
 * DynamoDB Local + cognito-local, sends on a real FIFO queue (fauxqs). A note is stored in the
 * thread as the attendant's and published to the ticket's viewers, but no send command ever reaches
 * the session, no webhook hears of it, the ticket's preview stays the last real message and the
 * service level still waits for a first response. Closed tickets, other tenants, users who may not
 * see the ticket, forged tokens, media and garbage in the flag are refused.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppMessageEvent } from '#contracts/messages';
import type { SessionCommand } from '#contracts/session-events';
import { addPrivateNote } from '#domain/outbound/note';
import { db, table } from '#storage/db';
import { getMessage, listMessagesPage } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket, ticketKey } from '#storage/tickets/tickets';
import {
  createConnection,
  type Env,
  invoke,
  multipart,
  type Published,
  seedTicket,
  skipTicketIds,
  startEnv,
  storeInbound,
} from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

const webhookEvents = vi.hoisted(() => [] as { event: string; data: unknown }[]);
vi.mock('#domain/webhooks/emit', async (original) => ({
  ...(await original<typeof import('#domain/webhooks/emit')>()),
  emitWebhookEvent: async (_companyId: number, event: string, data: unknown) => {
    webhookEvents.push({ event, data });
  },
}));

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionA: number;
let connectionB: number;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  await skipTicketIds(b.companyId);
  [connectionA, connectionB] = await Promise.all([createConnection(a).then((c) => c.id), createConnection(b).then((c) => c.id)]);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
  webhookEvents.length = 0;
});

const openTicket = (t: Tenant, connectionId: number) => seedTicket(t, connectionId, { status: 'open', userId: t.admin.id });
const send = (t: Tenant, ticket: TicketRecord, json: unknown, token = t.admin.token) =>
  invoke('POST /messages/{id}', { token, params: { id: ticket.id }, json });
const stored = async (ticket: TicketRecord) => (await listMessagesPage(ticket.companyId, ticket.id, { limit: 100 })).messages;

describe('POST /messages/{ticketId} with isPrivate: true', () => {
  it('stores the note as the attendant’s, settled and private, and sends nothing to the session', async () => {
    // Prepare
    const ticket = await openTicket(a, connectionA);
    // Act
    const res = await send(a, ticket, { body: 'Customer is a VIP, be gentle', isPrivate: true });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [note] = res.body.messages;
    expect(note).toMatchObject({
      ticketId: ticket.id,
      body: 'Customer is a VIP, be gentle',
      fromMe: true,
      isPrivate: true,
      pending: false,
      ack: 0,
      waId: null,
      error: null,
      userId: a.admin.id,
    });
    expect(await getMessage(a.companyId, ticket.id, note.id)).toMatchObject({ isPrivate: true, pending: false });
    expect(await env.commands.drain()).toEqual([]);
    // The thread (GET) says it is a note.
    const thread = await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } });
    expect(thread.body.messages.find((m: { id: string }) => m.id === note.id)).toMatchObject({ isPrivate: true });
  });

  it('publishes the note to the ticket’s viewers and emits no webhook, while a normal send does both', async () => {
    const ticket = await openTicket(a, connectionA);
    const published: Published[] = [];
    const commands: SessionCommand[] = [];
    const effects = {
      sendCommand: async (command: SessionCommand) => commands.push(command),
      publish: async (_companyId: number, _event: string, data: unknown, target: unknown) => published.push({ data, target }),
      now: () => new Date(),
    };
    const viewer = {
      userId: a.admin.id,
      companyId: a.companyId,
      profile: 'admin',
      super: false,
      user: { queueIds: [], allTicket: 'disabled', name: 'Admin' },
    };
    const messageWebhooks = () => webhookEvents.filter((w) => w.event.startsWith('message.')).map((w) => w.event);
    const note = await addPrivateNote(viewer, ticket.id, { body: 'internal only', hasMedia: false }, effects);
    expect(commands).toEqual([]);
    const creates = published.map((p) => p.data as AppMessageEvent).filter((e) => e.action === 'create' && e.message);
    expect(creates.map((e) => [e.message.id, e.message.isPrivate])).toEqual([[note.id, true]]);
    expect(messageWebhooks()).toEqual([]);

    const reply = await send(a, ticket, { body: 'Hello!' });
    expect(reply.status).toBe(200);
    expect(messageWebhooks()).toEqual(['message.sent']);
    expect((await env.commands.drain()).map((c) => c.kind === 'send' && c.body)).toEqual(['Hello!']);
  });

  it('leaves the ticket’s preview on the last real message and unread untouched', async () => {
    const ticket = await openTicket(a, connectionA);
    await storeInbound(ticket, 'where is my order?', Date.now() - 1000);
    const before = await getTicket(a.companyId, ticket.id);
    expect((await send(a, ticket, { body: 'checking with logistics', isPrivate: true })).status).toBe(200);
    const after = await getTicket(a.companyId, ticket.id);
    expect(after?.lastMessage).toBe('where is my order?');
    expect(after?.lastMessageAt).toBe(before?.lastMessageAt);
    expect(after?.unreadMessages).toBe(before?.unreadMessages);
  });

  it('is not the first response the service level waits for; the next real reply is', async () => {
    const ticket = await openTicket(a, connectionA);
    const startedAt = new Date(Date.now() - 60_000).toISOString();
    const sla = { queueId: 1, startedAt, firstResponseDueAt: new Date(Date.now() + 3_600_000).toISOString() };
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: ticketKey(a.companyId, ticket.id),
        UpdateExpression: 'SET sla = :sla',
        ExpressionAttributeValues: { ':sla': sla },
      }),
    );
    expect((await send(a, ticket, { body: 'note first', isPrivate: true })).status).toBe(200);
    expect((await getTicket(a.companyId, ticket.id))?.sla?.firstRespondedAt).toBeUndefined();
    const reply = await send(a, ticket, { body: 'real answer' });
    expect(reply.status).toBe(200);
    expect((await getTicket(a.companyId, ticket.id))?.sla?.firstRespondedAt).toBe(reply.body.messages[0].createdAt);
  });

  it('deleting a note marks it and sends no delete command', async () => {
    const ticket = await openTicket(a, connectionA);
    const note = (await send(a, ticket, { body: 'oops', isPrivate: true })).body.messages[0];
    const res = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: note.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: note.id, isDeleted: true, isPrivate: true });
    expect(await env.commands.drain()).toEqual([]);
  });

  it('isPrivate: false is a normal send', async () => {
    const ticket = await openTicket(a, connectionA);
    const res = await send(a, ticket, { body: 'public', isPrivate: false });
    expect(res.status).toBe(200);
    expect(res.body.messages[0]).toMatchObject({ pending: true });
    expect(res.body.messages[0].isPrivate).toBeUndefined();
    expect(await env.commands.drain()).toHaveLength(1);
  });
});

describe('private notes refused', () => {
  it('on a pending or closed ticket: 409 ERR_TICKET_NOT_OPEN, as a send', async () => {
    const pending = await seedTicket(a, connectionA);
    const closed = await seedTicket(a, connectionA, { status: 'closed' });
    for (const ticket of [pending, closed]) {
      const res = await send(a, ticket, { body: 'note', isPrivate: true });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'ERR_TICKET_NOT_OPEN', status: ticket.status });
      expect(await stored(ticket)).toEqual([]);
    }
  });

  it("on another tenant's ticket (404), for a user who may not see the ticket (403), with a forged token (401)", async () => {
    const ticketOfB = await openTicket(b, connectionB);
    const foreign = await send(a, ticketOfB, { body: 'intrusion', isPrivate: true });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    const ticketOfA = await openTicket(a, connectionA);
    const user = await a.addUser('user');
    const forbidden = await send(a, ticketOfA, { body: 'not mine', isPrivate: true }, user.token);
    expect(forbidden.status).toBe(403);
    const forged = await send(a, ticketOfA, { body: 'forged', isPrivate: true }, `${a.admin.token.slice(0, -6)}AAAAAA`);
    expect(forged.status).toBe(401);
    expect(await stored(ticketOfB)).toEqual([]);
    expect(await stored(ticketOfA)).toEqual([]);
  });

  it('with garbage in isPrivate, blank text, media, or as multipart: 400 and nothing stored or sent', async () => {
    const ticket = await openTicket(a, connectionA);
    for (const isPrivate of ['true', 'yes', 1, null, {}, []]) {
      const res = await send(a, ticket, { body: 'x', isPrivate });
      expect(res.status, JSON.stringify(isPrivate)).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'isPrivate' });
    }
    const blank = await send(a, ticket, { body: '   ', isPrivate: true });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    const media = await send(a, ticket, { body: 'see file', isPrivate: true, mediaUrls: [`${a.companyId}/x/file.pdf`] });
    expect(media.status).toBe(400);
    expect(media.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'isPrivate' });
    for (const flag of ['true', 'yes']) {
      const form = multipart([
        { name: 'body', value: 'a file' },
        { name: 'isPrivate', value: flag },
        { name: 'medias', value: Buffer.from('hello'), filename: 'a.txt', contentType: 'text/plain' },
      ]);
      const res = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw: form });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'isPrivate' });
    }
    expect(await stored(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });
});
