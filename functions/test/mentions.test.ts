/**
 * Mentions in private notes (issue 22 §6) over DynamoDB Local + cognito-local: `mentions: [userId]`
 * on a note tells each colleague (the `mention` event to their sockets only, GET /mentions) and lets
 * them read that ticket (record, thread) without its queue, read only, while the mention is unread
 * or for a day; opening it marks it read. Other tenants' users, messages to the customer, garbage and
 * tokens that are not the user's are refused, and a refused note stores nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MENTION_GRANT_HOURS } from '#contracts/mentions';
import { addPrivateNote } from '#domain/outbound/note';
import { loadReadableTicket } from '#domain/tickets/access';
import { listMessagesPage } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, type Published, seedTicket, skipTicketIds, startEnv } from './messages-harness.ts';
import { type SeededUser, seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let connectionA: number;
let colleague: SeededUser;
let bystander: SeededUser;
let stranger: SeededUser;

beforeAll(async () => {
  env = await startEnv();
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  await skipTicketIds(b.companyId);
  connectionA = (await createConnection(a)).id;
  // Plain users with no queue: neither may see a ticket of the admin's by the ordinary rule.
  [colleague, bystander, stranger] = await Promise.all([a.addUser('user'), a.addUser('user'), b.addUser('user')]);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

const openTicket = () => seedTicket(a, connectionA, { status: 'open', userId: a.admin.id });
const note = (ticket: TicketRecord, json: Record<string, unknown>, token = a.admin.token) =>
  invoke('POST /messages/{id}', { token, params: { id: ticket.id }, json: { isPrivate: true, ...json } });
const mentionsOf = (user: SeededUser) => invoke('GET /mentions', { token: user.token });
const viewerOf = (user: SeededUser, profile: string) => ({
  userId: user.id,
  companyId: a.companyId,
  profile,
  super: false,
  user: { queueIds: [], allTicket: 'disabled', name: `User ${user.id}` },
});
const thread = async (ticket: TicketRecord) => (await listMessagesPage(ticket.companyId, ticket.id, { limit: 100 })).messages;

describe('a note that mentions a colleague', () => {
  it('keeps who it mentions on the note and lists the mention, unread, for that colleague only', async () => {
    // Prepare
    const ticket = await openTicket();
    // Act
    const res = await note(ticket, { body: '@Ana can you check the invoice?', mentions: [colleague.id] });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages[0].mentions).toEqual([{ id: colleague.id, name: expect.any(String) }]);
    const mine = await mentionsOf(colleague);
    expect(mine.status).toBe(200);
    expect(mine.body.unread).toBe(1);
    expect(mine.body.mentions).toEqual([
      expect.objectContaining({
        id: res.body.messages[0].id,
        ticketId: ticket.id,
        ticketUuid: ticket.uuid,
        contactName: ticket.contact.name,
        authorId: a.admin.id,
        excerpt: '@Ana can you check the invoice?',
        readAt: null,
      }),
    ]);
    expect((await mentionsOf(bystander)).body).toEqual({ mentions: [], unread: 0 });
    expect((await mentionsOf(stranger)).body).toEqual({ mentions: [], unread: 0 });
  });

  it('tells the mentioned colleague’s sockets alone, and nobody when the author mentions themself', async () => {
    // Prepare
    const ticket = await openTicket();
    const published: Published[] = [];
    const effects = {
      sendCommand: async () => undefined,
      publish: async (_companyId: number, event: string, data: unknown, target: unknown) => {
        if (event.endsWith('-mention')) published.push({ data, target });
      },
      now: () => new Date(),
    };
    const admin = viewerOf(a.admin, 'admin');
    // Act
    await addPrivateNote(admin, ticket.id, { body: 'for @colleague', hasMedia: false, mentions: [colleague.id, a.admin.id] }, effects);
    await addPrivateNote(admin, ticket.id, { body: 'note to self @me', hasMedia: false, mentions: [a.admin.id] }, effects);
    // Assess
    expect(published).toEqual([
      {
        data: { action: 'create', mention: expect.objectContaining({ ticketId: ticket.id, excerpt: 'for @colleague', readAt: null }) },
        target: { kind: 'users', userIds: [colleague.id] },
      },
    ]);
    expect((await mentionsOf(a.admin)).body.mentions.filter((m: { ticketId: number }) => m.ticketId === ticket.id)).toEqual([]);
  });

  it('lets the colleague read the ticket and its thread, read only, without touching its unread count', async () => {
    // Prepare
    const ticket = await seedTicket(a, connectionA, { status: 'open', userId: a.admin.id, unreadMessages: 3 });
    const before = { bystander: await invoke('GET /tickets/{id}', { token: bystander.token, params: { id: ticket.id } }) };
    expect(before.bystander.status).toBe(403);
    // Act
    await note(ticket, { body: 'look at this one', mentions: [colleague.id] });
    const shown = await invoke('GET /tickets/{id}', { token: colleague.token, params: { id: ticket.id } });
    const byUuid = await invoke('GET /tickets/u/{uuid}', { token: colleague.token, params: { uuid: ticket.uuid } });
    const messages = await invoke('GET /messages/{id}', { token: colleague.token, params: { id: ticket.id } });
    const reply = await invoke('POST /messages/{id}', { token: colleague.token, params: { id: ticket.id }, json: { body: 'hi' } });
    const ownNote = await note(ticket, { body: 'me too' }, colleague.token);
    const accept = await invoke('PUT /tickets/{id}', {
      token: colleague.token,
      params: { id: ticket.id },
      json: { status: 'open', userId: colleague.id },
    });
    // Assess
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toMatchObject({ id: ticket.id, readOnly: true });
    expect(byUuid.body).toMatchObject({ id: ticket.id, readOnly: true });
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((m: { body: string }) => m.body)).toContain('look at this one');
    expect((await getTicket(a.companyId, ticket.id))?.unreadMessages).toBe(3);
    expect([reply.status, ownNote.status, accept.status]).toEqual([403, 403, 403]);
    expect((await getTicket(a.companyId, ticket.id))?.userId).toBe(a.admin.id);
    expect((await invoke('GET /messages/{id}', { token: bystander.token, params: { id: ticket.id } })).status).toBe(403);
    // The admin's own read of the ticket is not marked read-only.
    expect((await invoke('GET /tickets/{id}', { token: a.admin.token, params: { id: ticket.id } })).body.readOnly).toBeUndefined();
  });

  it('is read once opened, and then lets the colleague read the ticket for a day after it was made, not longer', async () => {
    // Prepare
    const ticket = await openTicket();
    const made = await note(ticket, { body: 'a day to look', mentions: [colleague.id] });
    const madeAt = Date.parse(made.body.messages[0].createdAt);
    const viewer = viewerOf(colleague, 'user');
    const at = (hours: number) => new Date(madeAt + hours * 3_600_000).toISOString();
    // An unread mention lasts past the day.
    await expect(loadReadableTicket(viewer, { id: ticket.id }, at(MENTION_GRANT_HOURS * 3))).resolves.toMatchObject({ byMention: true });
    // Act
    const read = await invoke('POST /mentions/read', { token: colleague.token, json: { ticketId: ticket.id } });
    const again = await invoke('POST /mentions/read', { token: colleague.token, json: { ticketId: ticket.id } });
    // Assess
    expect(read.body).toEqual({ read: 1 });
    expect(again.body).toEqual({ read: 0 });
    const listed = (await mentionsOf(colleague)).body.mentions.find((m: { ticketId: number }) => m.ticketId === ticket.id);
    expect(listed.readAt).toEqual(expect.any(String));
    await expect(loadReadableTicket(viewer, { id: ticket.id }, at(MENTION_GRANT_HOURS - 1))).resolves.toMatchObject({ byMention: true });
    await expect(loadReadableTicket(viewer, { id: ticket.id }, at(MENTION_GRANT_HOURS + 1))).rejects.toMatchObject({
      code: 'ERR_NO_PERMISSION',
    });
  });

  it('reads only the caller’s own mentions: another user’s read changes nothing of theirs', async () => {
    // Prepare
    const ticket = await openTicket();
    await note(ticket, { body: 'for the colleague', mentions: [colleague.id] });
    const unread = (await mentionsOf(colleague)).body.unread;
    // Act
    const byBystander = await invoke('POST /mentions/read', { token: bystander.token, json: { ticketId: ticket.id } });
    const byStranger = await invoke('POST /mentions/read', { token: stranger.token, json: { ticketId: ticket.id } });
    // Assess
    expect([byBystander.body, byStranger.body]).toEqual([{ read: 0 }, { read: 0 }]);
    expect((await mentionsOf(colleague)).body.unread).toBe(unread);
  });
});

describe('mentions refused', () => {
  // User ids are the company's own (another company's user 2 is this company's user 2, if any): an
  // id names a colleague of the caller's company or nobody.
  it('refuses an id that is no user of the company, and stores neither the note nor any mention', async () => {
    // Prepare
    const ticket = await openTicket();
    const before = (await mentionsOf(colleague)).body.mentions.length;
    // Act
    const other = await note(ticket, { body: 'to @ghost and @Ana', mentions: [colleague.id, 987_654] });
    const nobody = await note(ticket, { body: 'to @ghost', mentions: [987_654] });
    // Assess
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ error: 'ERR_MENTION_UNKNOWN_USER', field: 'mentions' });
    expect(nobody.body).toMatchObject({ error: 'ERR_MENTION_UNKNOWN_USER' });
    expect(await thread(ticket)).toEqual([]);
    expect((await mentionsOf(colleague)).body.mentions.length).toBe(before);
    expect((await mentionsOf(stranger)).body.mentions).toEqual([]);
  });

  it('refuses mentions on a message to the customer, which is not sent', async () => {
    // Prepare
    const ticket = await openTicket();
    // Act
    const res = await invoke('POST /messages/{id}', {
      token: a.admin.token,
      params: { id: ticket.id },
      json: { body: '@Ana hello customer', mentions: [colleague.id] },
    });
    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'mentions' });
    expect(await thread(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });

  it.each([
    ['a string', 'x'],
    ['zero', [0]],
    ['a negative id', [-1]],
    ['a fraction', [1.5]],
    ['a text id', ['1']],
    ['too many', Array.from({ length: 21 }, (_, i) => i + 1)],
  ])('answers 400 to mentions that are %s', async (_what, mentions) => {
    // Prepare
    const ticket = await openTicket();
    // Act
    const res = await note(ticket, { body: 'garbage', mentions });
    // Assess
    expect(res.status).toBe(400);
    expect(res.body.field).toMatch(/^mentions/);
    expect(await thread(ticket)).toEqual([]);
  });

  it.each([
    ['no ticketId', {}],
    ['a text ticketId', { ticketId: 'abc' }],
    ['a negative ticketId', { ticketId: -3 }],
  ])('answers 400 to POST /mentions/read with %s', async (_what, json) => {
    // Act
    const res = await invoke('POST /mentions/read', { token: colleague.token, json });
    // Assess
    expect(res.status).toBe(400);
  });

  it('answers 401 without a token or with a forged one', async () => {
    // Act
    const results = await Promise.all([
      invoke('GET /mentions'),
      invoke('GET /mentions', { token: `${colleague.token.slice(0, -4)}AAAA` }),
      invoke('POST /mentions/read', { json: { ticketId: 1 } }),
    ]);
    // Assess
    expect(results.map((r) => r.status)).toEqual([401, 401, 401]);
  });
});
