/**
 * Tags over DynamoDB Local + cognito-local: SPEC 5 messages, the kanban flag for admins and
 * supervisors only, ticket tags kept on the ticket's copy with ticketsCount in step (sync, add,
 * clear, rename, delete), concurrent adds not lost, visibility of the ticket, tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTag, tagTicketIds } from '#storage/tags';
import { getTicket } from '#storage/tickets/tickets';
import { updateUser } from '#storage/users/users';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, seedTenant, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;

beforeAll(async () => {
  stack = await startStack();
  inbox = await seedInbox(stack);
}, 90_000);
afterAll(async () => stack?.stop());

type Body = Record<string, unknown>;
const createTag = async (body: Body, token = inbox.admin.token) => call('POST /tags', { token, body });
const tagOf = async (name: string) => (await createTag({ name, color: '#123456' })).body as { id: number; name: string };
const count = async (id: number) => (await getTag(inbox.companyId, id))?.ticketsCount;

describe('tags', () => {
  it('validates with the spec messages and guards the kanban flag', async () => {
    expect((await createTag({ name: 'ab' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
      message: 'Mensagem muito curta',
    });
    expect((await createTag({})).body).toMatchObject({ field: 'name', message: 'Obrigatório' });
    expect((await createTag({ name: 'Kanban', kanban: 1 }, inbox.inQueue.token)).status).toBe(403);
    const plain = await createTag({ name: 'Plain' }, inbox.inQueue.token);
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ name: 'Plain', kanban: 0, ticketsCount: 0, userId: inbox.inQueue.id });
    const id = plain.body.id;
    expect((await call('PUT /tags/{id}', { token: inbox.inQueue.token, params: { id }, body: { kanban: 1 } })).status).toBe(403);
    const supervisor = await inbox.tenant.addUser('user');
    await updateUser(inbox.companyId, supervisor.id, { profile: 'supervisor' });
    expect((await call('PUT /tags/{id}', { token: supervisor.token, params: { id }, body: { kanban: true } })).body.kanban).toBe(1);
    const kanban = await call('GET /tags/kanban', { token: inbox.inQueue.token });
    expect(kanban.body.lista.map((t: Body) => t.id)).toContain(id);
    expect((await call('GET /tags/{id}', { token: inbox.inQueue.token, params: { id: 99999 } })).status).toBe(404);
  });

  it('lets only admins and supervisors create, change or delete a kanban lane (one rule for every write)', async () => {
    const lane = (await createTag({ name: 'Lane Prospects', color: '#00aa00', kanban: 1 })).body as { id: number };
    const plain = inbox.inQueue.token;
    const params = { id: lane.id };
    // Not created by a plain user (403), so not renamed, recoloured or deleted by one either.
    expect((await createTag({ name: 'Lane Mine', kanban: 1 }, plain)).status).toBe(403);
    const renamed = await call('PUT /tags/{id}', { token: plain, params, body: { name: 'Lane Gone', color: '#ff0000' } });
    expect(renamed).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await call('DELETE /tags/{id}', { token: plain, params })).status).toBe(403);
    expect(await getTag(inbox.companyId, lane.id)).toMatchObject({ name: 'Lane Prospects', color: '#00aa00', kanban: 1 });
    expect((await call('GET /tags/kanban', { token: plain })).body.lista.map((t: Body) => t.id)).toContain(lane.id);

    // A supervisor may do all three.
    const supervisor = await inbox.tenant.addUser('user');
    await updateUser(inbox.companyId, supervisor.id, { profile: 'supervisor' });
    expect((await call('PUT /tags/{id}', { token: supervisor.token, params, body: { name: 'Lane Leads' } })).body.name).toBe('Lane Leads');
    expect((await call('DELETE /tags/{id}', { token: supervisor.token, params })).status).toBe(204);
    expect(await getTag(inbox.companyId, lane.id)).toBeUndefined();
  });

  it('keeps the ticket copy and ticketsCount in step through sync, add, clear, rename and delete', async () => {
    const [red, blue, green] = [await tagOf('Red tag'), await tagOf('Blue tag'), await tagOf('Green tag')];
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const token = inbox.inQueue.token;
    const synced = await call('POST /tags/sync', { token, body: { ticketId: ticket.id, tags: [{ id: red.id }, { id: blue.id }] } });
    expect(synced.status).toBe(200);
    expect(synced.body.tags.map((t: Body) => t.id)).toEqual([red.id, blue.id]);
    expect([await count(red.id), await count(blue.id), await count(green.id)]).toEqual([1, 1, 0]);

    await call('POST /tags/sync', { token, body: { ticketId: ticket.id, tags: [blue.id, green.id] } });
    expect([await count(red.id), await count(blue.id), await count(green.id)]).toEqual([0, 1, 1]);
    const added = await call('PUT /ticket-tags/{ticketId}/{tagId}', { token, params: { ticketId: ticket.id, tagId: red.id } });
    expect(added.body.tags.map((t: Body) => t.id)).toEqual([blue.id, green.id, red.id]);
    // Adding again changes nothing.
    await call('PUT /ticket-tags/{ticketId}/{tagId}', { token, params: { ticketId: ticket.id, tagId: red.id } });
    expect(await count(red.id)).toBe(1);

    await call('PUT /tags/{id}', { token, params: { id: blue.id }, body: { name: 'Navy tag', color: '#000080' } });
    expect((await getTicket(inbox.companyId, ticket.id))?.tags).toContainEqual({ id: blue.id, name: 'Navy tag', color: '#000080' });
    const page = await call('GET /tags', { token, query: { searchParam: 'navy' } });
    expect(page.body).toMatchObject({ hasMore: false, tags: [{ id: blue.id, ticketsCount: 1 }] });

    expect((await call('DELETE /tags/{id}', { token, params: { id: green.id } })).status).toBe(204);
    expect((await getTicket(inbox.companyId, ticket.id))?.tags?.map((t) => t.id)).toEqual([blue.id, red.id]);
    expect(await getTag(inbox.companyId, green.id)).toBeUndefined();

    const cleared = await call('DELETE /ticket-tags/{ticketId}', { token, params: { ticketId: ticket.id } });
    expect(cleared.body.tags).toEqual([]);
    expect([await count(red.id), await count(blue.id)]).toEqual([0, 0]);
    // The ticket's API answer carries its tags.
    await call('POST /tags/sync', { token, body: { ticketId: ticket.id, tags: [red.id] } });
    const got = await call('GET /tickets/{id}', { token, params: { id: ticket.id } });
    expect(got.body.tags).toEqual([{ id: red.id, name: 'Red tag', color: '#123456' }]);
  });

  it('loses no concurrent add and writes nothing for an unknown tag or a ticket the caller may not see', async () => {
    const tags = await Promise.all(Array.from({ length: 6 }, (_, i) => tagOf(`Burst ${i}`)));
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const results = await Promise.all(
      tags.map((tag) =>
        call('PUT /ticket-tags/{ticketId}/{tagId}', { token: inbox.admin.token, params: { ticketId: ticket.id, tagId: tag.id } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(tags.map(() => 200));
    expect((await getTicket(inbox.companyId, ticket.id))?.tags?.map((t) => t.id).sort((a, b) => a - b)).toEqual(
      tags.map((t) => t.id).sort((a, b) => a - b),
    );
    for (const tag of tags) expect(await count(tag.id)).toBe(1);

    const unknown = await call('POST /tags/sync', { token: inbox.admin.token, body: { ticketId: ticket.id, tags: [tags[0]?.id, 99999] } });
    expect(unknown.status).toBe(404);
    expect((await getTicket(inbox.companyId, ticket.id))?.tags).toHaveLength(6);
    expect((await call('POST /tags/sync', { token: inbox.admin.token, body: { ticketId: 'x', tags: [] } })).status).toBe(400);
    const hidden = await call('DELETE /ticket-tags/{ticketId}', { token: inbox.otherQueue.token, params: { ticketId: ticket.id } });
    expect(hidden.status).toBe(403);
    expect((await getTicket(inbox.companyId, ticket.id))?.tags).toHaveLength(6);
  });

  it('deleting a ticket takes its tags with it (counts and links)', async () => {
    const [kept, gone] = [await tagOf('Kept tag'), await tagOf('Gone tag')];
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const other = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    await call('POST /tags/sync', { token: inbox.admin.token, body: { ticketId: ticket.id, tags: [kept.id, gone.id] } });
    await call('POST /tags/sync', { token: inbox.admin.token, body: { ticketId: other.id, tags: [kept.id] } });
    expect([await count(kept.id), await count(gone.id)]).toEqual([2, 1]);
    expect((await call('DELETE /tickets/{id}', { token: inbox.admin.token, params: { id: ticket.id } })).status).toBe(204);
    expect([await count(kept.id), await count(gone.id)]).toEqual([1, 0]);
    expect(await tagTicketIds(inbox.companyId, kept.id)).toEqual([other.id]);
    expect(await tagTicketIds(inbox.companyId, gone.id)).toEqual([]);
  });

  it("never reaches another tenant's tags", async () => {
    const lonely = await seedTenant(stack);
    const theirs = await tagOf('Foreign tag');
    const opts = { token: lonely.admin.token, params: { id: theirs.id } };
    expect((await call('GET /tags/{id}', opts)).status).toBe(404);
    expect((await call('PUT /tags/{id}', { ...opts, body: { name: 'Hijacked' } })).status).toBe(404);
    expect((await call('DELETE /tags/{id}', opts)).status).toBe(404);
    expect((await call('GET /tags/list', { token: lonely.admin.token })).body).toEqual([]);
    expect((await getTag(inbox.companyId, theirs.id))?.name).toBe('Foreign tag');
  });
});
