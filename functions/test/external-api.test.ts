/**
 * POST /api/messages/send over DynamoDB Local, fauxqs and s3rver: the connection token is the only
 * credential (401 otherwise), the plan flag and the due date are enforced here (403, 402), each token
 * has 60 requests a minute (429 with Retry-After), and a send finds or creates the contact and its
 * ticket on that connection and leaves a pending message plus a `send` command.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_API_TOKEN_LIMIT } from '#domain/auth/attempt-limits';
import { authorizeExternalSender, EXTERNAL_API_LIMIT, externalNumber, sendExternalMessage } from '#domain/external-api/send';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { updateCompany } from '#storage/companies/companies';
import { getContactByNumber } from '#storage/contacts/contacts';
import { listMessagesPage } from '#storage/messages/messages';
import { getSlot, getTicket, updateTicketState } from '#storage/tickets/tickets';
import { createConnection, deleteReaches, type Env, invoke, multipart, type Published, readObject, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let tenant: Tenant;
let connection: { id: number; token: string };

beforeAll(async () => {
  env = await startEnv();
  tenant = await seedTenant(env.stack);
  connection = await createConnection(tenant);
  await env.commands.drain();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  await env.commands.drain();
});

const sendApi = (token: string | undefined, json: unknown, sourceIp?: string) =>
  invoke('POST /api/messages/send', { token, json, ...(sourceIp ? { sourceIp } : {}) });

describe('authentication and gates', () => {
  it('refuses a missing or unknown token with 401 and a user session token too', async () => {
    for (const token of [undefined, 'nope', `${connection.token}x`, tenant.admin.token]) {
      const res = await sendApi(token, { number: '5511988887777', body: 'hi' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_UNAUTHORIZED');
    }
  });

  it('answers 403 when the plan lacks useExternalApi and 402 when the company is expired, sending nothing', async () => {
    const noApi = await seedTenant(env.stack, { plan: { useExternalApi: false } });
    const expired = await seedTenant(env.stack);
    const [c1, c2] = await Promise.all([createConnection(noApi), createConnection(expired)]);
    // The connection was made while the company was current; its due date has passed since.
    await updateCompany(expired.companyId, { dueDate: '2020-01-15' });
    await env.commands.drain();
    const forbidden = await sendApi(c1.token, { number: '5511988887777', body: 'hi' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useExternalApi' });
    expect(await getContactByNumber(noApi.companyId, '5511988887777')).toBeUndefined();
    const late = await sendApi(c2.token, { number: '5511988887777', body: 'hi' });
    expect(late.status).toBe(402);
    expect(late.body).toMatchObject({ error: 'ERR_COMPANY_EXPIRED', dueDate: '2020-01-15' });
    expect(await getContactByNumber(expired.companyId, '5511988887777')).toBeUndefined();
    expect(await env.commands.drain()).toEqual([]);
  });
});

describe('sending', () => {
  it('unmasks the number, creates the contact and a pending ticket on the connection, stores and queues the message', async () => {
    // Act
    const res = await sendApi(connection.token, { number: '+55 (11) 97777-1234', body: 'Seu pedido saiu para entrega' });
    // Assess
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ mensagem: 'Mensagem enviada' });
    const contact = await getContactByNumber(tenant.companyId, '5511977771234');
    expect(contact).toMatchObject({ number: '5511977771234', isGroup: false });
    const slot = await getSlot(tenant.companyId, contact?.id ?? 0, connection.id);
    const ticket = await getTicket(tenant.companyId, slot?.ticketId ?? 0);
    expect(ticket).toMatchObject({ status: 'pending', whatsappId: connection.id, contactId: contact?.id });
    const { messages } = await listMessagesPage(tenant.companyId, ticket?.id ?? 0, { limit: 10 });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ body: 'Seu pedido saiu para entrega', fromMe: true, pending: true, ack: 0, userId: null });
    const commands = await env.commands.drain();
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ kind: 'send', messageId: messages[0]?.id, number: '5511977771234', connectionId: connection.id });

    // A second send reuses the contact and its open ticket.
    const again = await sendApi(connection.token, { number: 5511977771234, body: 'Chegou?' });
    expect(again.status).toBe(200);
    expect((await listMessagesPage(tenant.companyId, ticket?.id ?? 0, { limit: 10 })).messages).toHaveLength(2);
  });

  it('a send that reopens a closed ticket tells its former attendant, who no longer sees it, to drop it', async () => {
    // Prepare: a ticket of the number, closed by a plain user who had it (no queue of theirs).
    const attendant = await tenant.addUser('user');
    expect((await sendApi(connection.token, { number: '5511966661234', body: 'Primeira' })).status).toBe(200);
    const contact = await getContactByNumber(tenant.companyId, '5511966661234');
    const slot = await getSlot(tenant.companyId, contact?.id ?? 0, connection.id);
    const ticket = await getTicket(tenant.companyId, slot?.ticketId ?? 0);
    if (!ticket) throw new Error('no ticket');
    await updateTicketState(await updateTicketState(ticket, { status: 'open', userId: attendant.id }), { status: 'closed' });
    const published: Published[] = [];
    const effects: Effects = { ...defaultEffects, publish: async (_companyId, _event, data, target) => published.push({ data, target }) };
    // Act
    await sendExternalMessage(
      await authorizeExternalSender(connection.token, { sourceIp: '127.0.0.1' }),
      { number: '5511966661234', bodies: ['De novo'], files: [] },
      effects,
    );
    // Assess: the same ticket, pending without attendant; one delete, for the former attendant's sockets only.
    expect(await getTicket(tenant.companyId, ticket.id)).toMatchObject({ status: 'pending', userId: null });
    const reaches = deleteReaches(published, ticket.id, tenant.companyId);
    expect(reaches({ userId: attendant.id })).toBe(true);
    expect(reaches({ userId: tenant.admin.id, profile: 'admin' })).toBe(false);
  });

  it('sends multipart medias uploaded under the tenant prefix', async () => {
    const form = multipart([
      { name: 'number', value: '5511966665555' },
      { name: 'body', value: 'boleto' },
      { name: 'medias', value: Buffer.from('%PDF-1.4 fake'), filename: 'boleto março.pdf', contentType: 'application/pdf' },
    ]);
    const res = await invoke('POST /api/messages/send', { token: connection.token, raw: form });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [command] = await env.commands.drain();
    expect(command?.kind).toBe('send');
    if (command?.kind !== 'send') return;
    expect(command.body).toBe('boleto');
    expect(command.media).toMatchObject({ mimetype: 'application/pdf', filename: 'boleto_março.pdf' });
    expect(command.media?.key.startsWith(`${tenant.companyId}/tickets/${command.ticketId}/`)).toBe(true);
    expect(await readObject(command.media?.key ?? '')).toEqual(Buffer.from('%PDF-1.4 fake'));
  });

  it('refuses a page, an SVG or a program among the medias, and sends nothing', async () => {
    for (const [filename, contentType] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['setup.exe', 'application/x-msdownload'],
      ['\u202Egnp.exe', 'image/png'],
    ]) {
      const form = multipart([
        { name: 'number', value: '5511966664444' },
        { name: 'medias', value: Buffer.from('<svg onload="alert(1)"/>'), filename, contentType },
      ]);
      const res = await invoke('POST /api/messages/send', { token: connection.token, raw: form });
      expect(res.status, filename).toBe(400);
      expect(res.body, filename).toMatchObject({ error: 'ERR_FILE_TYPE_NOT_ALLOWED', field: 'medias' });
    }
    expect(await env.commands.drain()).toEqual([]);
  });

  it('refuses invalid numbers (ERR_WAPP_INVALID_CONTACT) and blank bodies before creating anything', async () => {
    for (const number of ['123', 'abc', '', '0011988887777', '1'.repeat(16)]) {
      const res = await sendApi(connection.token, { number, body: 'hi' });
      expect(res.status, number).toBe(400);
      expect(res.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    }
    const blank = await sendApi(connection.token, { number: '5511955554444', body: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    expect(await getContactByNumber(tenant.companyId, '5511955554444')).toBeUndefined();
    const malformed = await invoke('POST /api/messages/send', {
      token: connection.token,
      raw: { contentType: 'multipart/form-data; boundary=x', body: Buffer.from('--x\r\nbroken') },
    });
    expect(malformed.status).toBe(400);
    expect(await env.commands.drain()).toEqual([]);
  });

  it("refuses a private note (isPrivate: true), JSON or multipart, and sends nothing: a note is the inbox's, never the contact's", async () => {
    const json = await sendApi(connection.token, { number: '5511955554445', body: 'nota interna', isPrivate: true });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'isPrivate' });
    const form = multipart([
      { name: 'number', value: '5511955554445' },
      { name: 'body', value: 'nota interna' },
      { name: 'isPrivate', value: 'true' },
    ]);
    const viaForm = await invoke('POST /api/messages/send', { token: connection.token, raw: form });
    expect(viaForm.status).toBe(400);
    expect(viaForm.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'isPrivate' });
    expect(await getContactByNumber(tenant.companyId, '5511955554445')).toBeUndefined();
    expect(await env.commands.drain()).toEqual([]);
    // Saying it is not a note is fine.
    expect((await sendApi(connection.token, { number: '5511955554445', body: 'oi', isPrivate: false })).status).toBe(200);
  });

  it('keeps numbers to digits with country and area code', () => {
    expect(externalNumber('+55 (11) 98888-7777')).toBe('5511988887777');
    expect(externalNumber('1 (415) 555-2671')).toBe('14155552671');
    expect(() => externalNumber('8888-7777')).toThrow();
  });
});

describe('rate limit', () => {
  it(`allows ${EXTERNAL_API_LIMIT} requests a minute per token, then 429 with Retry-After`, async () => {
    const own = await createConnection(tenant);
    // Stay inside one fixed window.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    // Refused bodies still count: the limit guards the token, whatever it sends.
    const answers = await Promise.all(Array.from({ length: EXTERNAL_API_LIMIT }, () => sendApi(own.token, { number: '1', body: 'x' })));
    expect(answers.map((r) => r.status)).toEqual(Array(EXTERNAL_API_LIMIT).fill(400));
    const limited = await sendApi(own.token, { number: '5511944443333', body: 'one too many' });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another token of the same company has its own budget.
    const other = await sendApi(connection.token, { number: '5511944443333', body: 'fine' });
    expect(other.status).toBe(200);
  }, 60_000);
});

describe('guessing tokens', () => {
  it(`throttles an address's unknown tokens after ${ADDRESS_API_TOKEN_LIMIT}, but never its company's valid token`, async () => {
    // Everyone behind one NAT shares the address: a stranger's guesses must not cut the company's integration.
    const shared = '203.0.113.77';
    const guess = (i: number) => sendApi(`guessed-token-${String(i).padStart(4, '0')}`, { number: '5511944443333', body: 'x' }, shared);
    for (let i = 0; i < ADDRESS_API_TOKEN_LIMIT; i++) expect((await guess(i)).status).toBe(401);
    expect(await guess(ADDRESS_API_TOKEN_LIMIT)).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_ATTEMPTS' } });

    const valid = await sendApi(connection.token, { number: '5511944443333', body: 'right token, same address' }, shared);
    expect(valid).toMatchObject({ status: 200, body: { mensagem: 'Mensagem enviada' } });

    const stillLocked = await guess(ADDRESS_API_TOKEN_LIMIT + 1);
    expect(stillLocked).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_ATTEMPTS' } });
    expect(Number(stillLocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await sendApi(connection.token, { number: '5511944443333', body: 'from elsewhere' }, '203.0.113.78')).status).toBe(200);
  });

  it('refuses a token shorter than 16 characters, as connections can no longer have one', async () => {
    expect(await sendApi('short', { number: '5511944443333', body: 'x' }, '203.0.113.79')).toMatchObject({
      status: 401,
      body: { error: 'ERR_UNAUTHORIZED' },
    });
  });
});
