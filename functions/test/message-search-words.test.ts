/**
 * The message words of the search index follow the messages (storage/messages/words.ts): GET /tickets
 * searchParam stops finding a ticket by a word edited away or deleted (the contact's edit or
 * revoke from WhatsApp, our DELETE /messages/{id}), keeps finding it while another of its messages
 * still holds the word, and finds it by the edited text. Over DynamoDB Local, through the handlers
 * and the table's stream consumer (drained before each search).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleEdit, handleRevoke } from '#domain/inbound/updates';
import type { Effects } from '#domain/messages/effects';
import { getMessage } from '#storage/messages/messages';
import { readSearchHits } from '#storage/search-reads';
import type { TicketRecord } from '#storage/tickets/record';
import { createConnection, type Env, invoke, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { drainTableStreams } from './support/table-streams.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let a: Tenant;
let connectionId: number;

const quiet: Effects = { sendCommand: async () => undefined, publish: async () => undefined, now: () => new Date() };

beforeAll(async () => {
  env = await startEnv({ streams: true });
  a = await seedTenant(env.stack);
  connectionId = (await createConnection(a)).id;
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

/** The ticket ids a search by `term` lists for the admin (show all), once the table's stream indexed what was written. */
async function found(term: string): Promise<number[]> {
  await drainTableStreams();
  const res = await invoke('GET /tickets', { token: a.admin.token, query: { searchParam: term, showAll: 'true' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tickets as { id: number }[]).map((ticket) => ticket.id);
}

const event = (ticket: TicketRecord, waMessageId: string) => ({
  companyId: a.companyId,
  connectionId: ticket.whatsappId,
  waMessageId,
  number: ticket.contact.number,
});

describe('message words in the ticket search', () => {
  it("follow the contact's edits and deletes, and a word stays while another message holds it", async () => {
    // Prepare: two messages sharing a word.
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const first = await storeInbound(ticket, 'Meu boleto quixotesco venceu');
    const second = await storeInbound(ticket, 'Segundo boleto, pagamento zarabatana');
    expect(await found('quixotesco')).toEqual([ticket.id]);
    expect(await found('boleto')).toContain(ticket.id);

    // Act: the contact edits the first message.
    await handleEdit({ kind: 'edit', ...event(ticket, first.waId as string), body: 'Minha fatura pterodactilo venceu' }, quiet);

    // Assess: the old word is gone, the new one found, the shared one kept by the second message.
    expect(await found('quixotesco')).toEqual([]);
    expect(await found('pterodactilo')).toEqual([ticket.id]);
    expect(await found('boleto')).toContain(ticket.id);

    // Act: the contact deletes the second message (twice: a replayed revoke changes nothing).
    await handleRevoke({ kind: 'revoke', ...event(ticket, second.waId as string) }, quiet);
    await handleRevoke({ kind: 'revoke', ...event(ticket, second.waId as string) }, quiet);

    // Assess: its words are gone, the edited message's stay.
    expect((await getMessage(a.companyId, ticket.id, second.id))?.isDeleted).toBe(true);
    expect(await found('zarabatana')).toEqual([]);
    expect(await found('boleto')).not.toContain(ticket.id);
    expect(await found('pterodactilo')).toEqual([ticket.id]);
    // Nothing of the deleted words is left in the index to read through.
    expect((await readSearchHits(a.companyId, 'M', 'zarabatana', { limit: 10 })).items).toEqual([]);
    expect((await readSearchHits(a.companyId, 'M', 'boleto', { limit: 10 })).items.map((hit) => hit.id)).not.toContain(ticket.id);
  });

  it('DELETE /messages/{id} takes our message out of the search; the API never shows the index words', async () => {
    const ticket = await seedTicket(a, connectionId, { status: 'open', userId: a.admin.id });
    const sent = await invoke('POST /messages/{id}', {
      token: a.admin.token,
      params: { id: ticket.id },
      json: { body: 'Seu pedido ornitorrinco saiu' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const message = sent.body.messages[0];
    expect(message).not.toHaveProperty('searchWords');
    expect(await found('ornitorrinco')).toEqual([ticket.id]);
    const listed = await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } });
    expect(listed.body.messages[0]).not.toHaveProperty('searchWords');

    const deleted = await invoke('DELETE /messages/{id}', { token: a.admin.token, params: { id: message.id } });

    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).not.toHaveProperty('searchWords');
    expect(await found('ornitorrinco')).toEqual([]);
    await env.commands.drain();
  });
});
