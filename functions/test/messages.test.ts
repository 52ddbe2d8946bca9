/**
 * The messages API over DynamoDB Local + cognito-local, with sends landing on a real FIFO queue
 * (fauxqs) and media in s3rver: a send is a pending message plus a `send` command, refused on a
 * ticket that is not open and for blank text, signed on request; multipart media is uploaded under
 * the tenant's prefix before its message exists; only our own messages can be deleted; another
 * tenant's tickets and messages are not found.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ticketNamedBy } from '#contracts/message-ticket-id';
import { waMessageIdFor } from '#contracts/wa-message-id';
import { messageIdAt } from '#domain/messages/message-id';
import { getItem } from '#storage/db';
import { getMessage, listMessagesPage, lookupKey } from '#storage/messages/messages';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import {
  createConnection,
  type Env,
  invoke,
  multipart,
  readObject,
  seedTicket,
  skipTicketIds,
  startEnv,
  storeInbound,
} from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

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
});

const openTicket = (t: Tenant, connectionId: number) => seedTicket(t, connectionId, { status: 'open', userId: t.admin.id });
const send = (t: Tenant, ticket: TicketRecord, json: unknown, token = t.admin.token) =>
  invoke('POST /messages/{id}', { token, params: { id: ticket.id }, json });
const stored = async (ticket: TicketRecord) => (await listMessagesPage(ticket.companyId, ticket.id, { limit: 100 })).messages;

describe('POST /messages/{ticketId} (JSON)', () => {
  it('stores a pending fromMe message, then queues its send command on the connection group', async () => {
    // Prepare
    const ticket = await openTicket(a, connectionA);
    // Act
    const res = await send(a, ticket, { body: 'Olá, tudo bem?', read: true, fromMe: true });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [message] = res.body.messages;
    expect(message).toMatchObject({ ticketId: ticket.id, body: 'Olá, tudo bem?', fromMe: true, ack: 0, pending: true, userId: a.admin.id });
    const record = await getMessage(a.companyId, ticket.id, message.id);
    expect(record).toMatchObject({ pending: true, ack: 0, error: null });
    const commands = await env.commands.drain();
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({
      kind: 'send',
      messageId: message.id,
      commandId: message.id,
      ticketId: ticket.id,
      connectionId: connectionA,
      groupId: `${a.companyId}:${connectionA}`,
      number: ticket.contact.number,
      body: 'Olá, tudo bem?',
    });
    expect((await getTicket(a.companyId, ticket.id))?.lastMessage).toBe('Olá, tudo bem?');
  });

  it('signs the body with the user name when asked, never twice, and not otherwise', async () => {
    const ticket = await openTicket(a, connectionA);
    const name = (await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } })).body.ticket.user.name;
    const signed = await send(a, ticket, { body: 'hello', signMessage: true });
    const already = await send(a, ticket, { body: `*${name}:*\nhello again`, signMessage: true });
    const plain = await send(a, ticket, { body: 'unsigned' });
    expect(signed.body.messages[0].body).toBe(`*${name}:*\nhello`);
    expect(already.body.messages[0].body).toBe(`*${name}:*\nhello again`);
    expect(plain.body.messages[0].body).toBe('unsigned');
    expect((await env.commands.drain()).map((c) => (c.kind === 'send' ? c.body : ''))).toEqual([
      `*${name}:*\nhello`,
      `*${name}:*\nhello again`,
      'unsigned',
    ]);
  });

  it('refuses blank text with 400 and writes nothing', async () => {
    const ticket = await openTicket(a, connectionA);
    for (const json of [{ body: '' }, { body: '  \n\t ' }, {}, { body: '   ', signMessage: true }]) {
      const res = await send(a, ticket, json);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    }
    expect(await stored(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });

  it('sends only on an open ticket: pending and closed tickets answer 409 ERR_TICKET_NOT_OPEN', async () => {
    const pending = await seedTicket(a, connectionA);
    const closed = await seedTicket(a, connectionA, { status: 'closed' });
    for (const ticket of [pending, closed]) {
      const res = await send(a, ticket, { body: 'hi' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'ERR_TICKET_NOT_OPEN', status: ticket.status });
      expect(await stored(ticket)).toEqual([]);
    }
    expect(await env.commands.drain()).toEqual([]);
  });

  it('quotes a message of the conversation; a quote from another contact is a 400', async () => {
    const ticket = await openTicket(a, connectionA);
    const inbound = await storeInbound(ticket, 'what time do you open?');
    const other = await storeInbound(await openTicket(a, connectionA), 'someone else');
    const res = await send(a, ticket, { body: 'at 9', quotedMsg: { id: inbound.id, body: 'ignored', fromMe: false } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages[0]).toMatchObject({ quotedMsgId: inbound.id, quotedMsg: { id: inbound.id, body: 'what time do you open?' } });
    const [command] = await env.commands.drain();
    expect(command).toMatchObject({ kind: 'send', quotedWaId: inbound.waId, quotedFromMe: false });
    const wrong = await send(a, ticket, { body: 'x', quotedMsg: { id: other.id } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'quotedMsg.id' });
  });

  it("answers 404 ERR_NO_TICKET_FOUND for another tenant's ticket and 403 for a ticket the user may not see", async () => {
    const ticketOfB = await openTicket(b, connectionB);
    const res = await send(a, ticketOfB, { body: 'intrusion' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    const ticketOfA = await openTicket(a, connectionA);
    const user = await a.addUser('user');
    const forbidden = await send(a, ticketOfA, { body: 'not mine' }, user.token);
    expect(forbidden.status).toBe(403);
    expect(await stored(ticketOfB)).toEqual([]);
    expect(await stored(ticketOfA)).toEqual([]);
  });
});

describe('POST /messages/{ticketId} (multipart)', () => {
  it('uploads each file under the tenant prefix, then stores and sends one message per file in order', async () => {
    // Prepare
    const ticket = await openTicket(a, connectionA);
    const image = Buffer.from('89504e470d0a1a0a-fake-png', 'utf8');
    const audio = Buffer.from('OggS-fake-voice', 'utf8');
    const form = multipart([
      { name: 'body', value: 'see the photo' },
      { name: 'fromMe', value: 'true' },
      { name: 'asVoice', value: 'true' },
      { name: 'medias', value: image, filename: 'my holiday photo.png', contentType: 'image/png' },
      { name: 'medias', value: audio, filename: 'audio record.ogg', contentType: 'audio/ogg' },
    ]);
    // Act
    const res = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw: form });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = res.body.messages;
    expect(first).toMatchObject({ body: 'see the photo', mediaType: 'image', mediaName: 'my_holiday_photo.png', pending: true });
    expect(second).toMatchObject({ body: '', mediaType: 'audio', mediaName: 'audio_record.ogg' });
    expect(first.id < second.id).toBe(true);
    const records = await Promise.all([first, second].map((m) => getMessage(a.companyId, ticket.id, m.id)));
    const keys = records.map((r) => r?.mediaPath ?? '');
    expect(keys[0]).toMatch(new RegExp(`^${a.companyId}/tickets/${ticket.id}/[0-9a-f-]{36}/my_holiday_photo\\.png$`));
    expect(await readObject(keys[0] ?? '')).toEqual(image);
    expect(await readObject(keys[1] ?? '')).toEqual(audio);
    // The API never hands out bucket keys: media points at the private route.
    expect(first.mediaUrl).toBe(`/public/${keys[0]}`);
    const commands = await env.commands.drain();
    expect(commands.map((c) => (c.kind === 'send' ? [c.messageId, c.media?.key, c.media?.mimetype, c.media?.asVoice] : []))).toEqual([
      [first.id, keys[0], 'image/png', undefined],
      [second.id, keys[1], 'audio/ogg', true],
    ]);
  });

  it('gives each file its own caption when there is one body per file', async () => {
    const ticket = await openTicket(a, connectionA);
    const form = multipart([
      { name: 'medias', value: Buffer.from('a'), filename: 'a.pdf', contentType: 'application/pdf' },
      { name: 'medias', value: Buffer.from('b'), filename: 'b.pdf', contentType: 'application/pdf' },
      { name: 'body', value: 'first' },
      { name: 'body', value: 'second' },
      { name: 'signMessage', value: 'true' },
    ]);
    const res = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw: form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages.map((m: { body: string; mediaType: string }) => [m.body.split('\n')[1], m.mediaType])).toEqual([
      ['first', 'application'],
      ['second', 'application'],
    ]);
  });

  it('refuses junk, empty files and oversized bodies with 4xx and writes nothing', async () => {
    const ticket = await openTicket(a, connectionA);
    const good = multipart([{ name: 'medias', value: Buffer.from('x'), filename: 'x.txt', contentType: 'text/plain' }]);
    const cases: Array<[{ contentType: string; body: Buffer }, number]> = [
      [{ contentType: 'multipart/form-data', body: Buffer.from('no boundary') }, 400],
      [{ contentType: good.contentType, body: good.body.subarray(0, good.body.length - 12) }, 400],
      [{ contentType: 'multipart/form-data; boundary=zzz', body: Buffer.from('\u0000\u0001garbage--zzz') }, 400],
      [multipart([{ name: 'medias', value: Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' }]), 400],
      [multipart([{ name: 'medias', value: Buffer.alloc(10 * 1024 * 1024 + 1), filename: 'big.bin' }]), 413],
    ];
    for (const [raw, status] of cases) {
      const res = await invoke('POST /messages/{id}', { token: a.admin.token, params: { id: ticket.id }, raw });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toMatch(/^ERR_/);
    }
    expect(await stored(ticket)).toEqual([]);
    expect(await env.commands.drain()).toEqual([]);
  });
});

describe('DELETE /messages/{id}', () => {
  it('deletes our own message: the delete command carries its WhatsApp id, then the message is marked', async () => {
    const ticket = await openTicket(a, connectionA);
    const sent = (await send(a, ticket, { body: 'oops' })).body.messages[0];
    await env.commands.drain();
    const res = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: sent.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: sent.id, isDeleted: true });
    expect((await getMessage(a.companyId, ticket.id, sent.id))?.isDeleted).toBe(true);
    const [command] = await env.commands.drain();
    expect(command).toMatchObject({
      kind: 'delete',
      connectionId: connectionA,
      waMessageId: waMessageIdFor(a.companyId, connectionA, sent.id),
      number: ticket.contact.number,
      fromMe: true,
    });
  });

  it('finds a message by the ticket its id names, with no lookup item; an id from before (random) through its lookup', async () => {
    // Prepare: a send (its id names its ticket), the contact's message quoted, and a message of ours stored with an old random id
    const ticket = await openTicket(a, connectionA);
    const sent = (await send(a, ticket, { body: 'new shape' })).body.messages[0];
    const inbound = await storeInbound(ticket, 'quote me', Date.now(), { id: messageIdAt(Date.now(), ticket.id) });
    const old = await storeInbound(ticket, 'old shape', Date.now(), { id: messageIdAt(Date.now()), fromMe: true, waId: 'OLD-SHAPE-1' });
    await env.commands.drain();
    expect(ticketNamedBy(sent.id)).toBe(ticket.id);
    expect(await getItem(lookupKey(a.companyId, sent.id).pk, 'LOOKUP')).toBeUndefined();
    expect(await getItem(lookupKey(a.companyId, inbound.id).pk, 'LOOKUP')).toBeUndefined();
    expect(await getItem(lookupKey(a.companyId, old.id).pk, 'LOOKUP')).toMatchObject({ ticketId: ticket.id });
    // Act
    const quoting = await send(a, ticket, { body: 'quoted', quotedMsg: { id: inbound.id } });
    const deleted = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: sent.id } });
    const deletedOld = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: old.id } });
    // Assess
    expect(quoting.status, JSON.stringify(quoting.body)).toBe(200);
    expect(quoting.body.messages[0]).toMatchObject({ quotedMsgId: inbound.id, quotedMsg: { body: 'quote me' } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deletedOld.status, JSON.stringify(deletedOld.body)).toBe(200);
    expect((await getMessage(a.companyId, ticket.id, old.id))?.isDeleted).toBe(true);
  });

  it("refuses the contact's messages (ERR_DELETE_WAPP_MSG), unknown and foreign ids (404), malformed ids (400)", async () => {
    const ticket = await openTicket(a, connectionA);
    const inbound = await storeInbound(ticket, 'from the contact');
    const theirs = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: inbound.id } });
    expect(theirs.status).toBe(400);
    expect(theirs.body.error).toBe('ERR_DELETE_WAPP_MSG');
    expect((await getMessage(a.companyId, ticket.id, inbound.id))?.isDeleted).toBe(false);

    const ticketOfB = await openTicket(b, connectionB);
    const ofB = (await send(b, ticketOfB, { body: 'B private' })).body.messages[0];
    const foreign = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: ofB.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await getMessage(b.companyId, ticketOfB.id, ofB.id))?.isDeleted).toBe(false);

    const malformed = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: '../../etc' } });
    expect(malformed.status).toBe(400);
    await env.commands.drain();
    const none = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: ofB.id.replace(/^.{8}/, '00000000') } });
    expect(none.status).toBe(404);
    expect(await env.commands.drain()).toEqual([]);
  });
});
