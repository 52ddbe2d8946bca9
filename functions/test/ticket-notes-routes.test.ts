/**
 * Ticket notes over DynamoDB Local + cognito-local: 'Too Short!', only on tickets the caller may
 * see (SPEC 6), the ticket's own contact, delete by the author or an admin, tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTicketNote, listTicketNotes } from '#storage/tickets/notes';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, seedTenant, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
}, 90_000);
afterAll(async () => stack?.stop());

describe('ticket notes', () => {
  it('adds, lists and deletes notes on a visible ticket', async () => {
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const token = inbox.inQueue.token;
    const short = await call('POST /ticket-notes', { token, body: { note: 'x', ticketId: ticket.id, contactId: ticket.contactId } });
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'note', message: 'Too Short!' });
    expect((await call('POST /ticket-notes', { token, body: { ticketId: ticket.id } })).body.field).toBe('note');
    const wrongContact = await call('POST /ticket-notes', {
      token,
      body: { note: 'hello', ticketId: ticket.id, contactId: ticket.contactId + 1000 },
    });
    expect(wrongContact.status).toBe(400);

    const first = await call('POST /ticket-notes', {
      token,
      body: { note: 'Cliente VIP', ticketId: ticket.id, contactId: ticket.contactId },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      note: 'Cliente VIP',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      user: { id: inbox.inQueue.id },
    });
    const second = await call('POST /ticket-notes', { token: inbox.admin.token, body: { note: 'Ligar amanhã', ticketId: ticket.id } });
    const list = await call('GET /ticket-notes/list', {
      token,
      query: { ticketId: String(ticket.id), contactId: String(ticket.contactId) },
    });
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([first.body.id, second.body.id]);

    // Not the author, not admin: refused; the admin's own and the author's own: deleted.
    expect((await call('DELETE /ticket-notes/{id}', { token, params: { id: second.body.id } })).status).toBe(403);
    expect((await call('DELETE /ticket-notes/{id}', { token, params: { id: first.body.id } })).status).toBe(204);
    expect((await call('DELETE /ticket-notes/{id}', { token: inbox.admin.token, params: { id: second.body.id } })).status).toBe(204);
    expect((await call('GET /ticket-notes/list', { token, query: { ticketId: String(ticket.id) } })).body).toEqual([]);
    expect((await call('DELETE /ticket-notes/{id}', { token, params: { id: first.body.id } })).status).toBe(404);
  });

  it('deleting the ticket deletes its notes', async () => {
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const note = await call('POST /ticket-notes', { token: inbox.admin.token, body: { note: 'bye', ticketId: ticket.id } });
    expect((await call('DELETE /tickets/{id}', { token: inbox.admin.token, params: { id: ticket.id } })).status).toBe(204);
    expect(await listTicketNotes(inbox.companyId, ticket.id)).toEqual([]);
    expect(await getTicketNote(inbox.companyId, note.body.id)).toBeUndefined();
  });

  it('refuses tickets the caller may not see, and other tenants', async () => {
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const note = await call('POST /ticket-notes', { token: inbox.inQueue.token, body: { note: 'private', ticketId: ticket.id } });
    const other = inbox.otherQueue.token;
    expect((await call('POST /ticket-notes', { token: other, body: { note: 'intrusion', ticketId: ticket.id } })).status).toBe(403);
    expect((await call('GET /ticket-notes/list', { token: other, query: { ticketId: String(ticket.id) } })).status).toBe(403);
    expect((await call('DELETE /ticket-notes/{id}', { token: other, params: { id: note.body.id } })).status).toBe(403);

    const lonely = await seedTenant(stack);
    expect((await call('GET /ticket-notes/list', { token: lonely.admin.token, query: { ticketId: String(ticket.id) } })).status).toBe(404);
    expect((await call('DELETE /ticket-notes/{id}', { token: lonely.admin.token, params: { id: note.body.id } })).status).toBe(404);
    expect((await call('GET /ticket-notes/list', { token: inbox.admin.token, query: { ticketId: String(ticket.id) } })).body).toHaveLength(
      1,
    );
    expect((await call('GET /ticket-notes/list', { token: inbox.admin.token, query: { ticketId: 'abc' } })).status).toBe(400);
  });
});
