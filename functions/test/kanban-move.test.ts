/**
 * POST /ticket-tags/{ticketId}/move, the kanban's drag between lanes, over DynamoDB Local +
 * cognito-local: the old lane's tag off and the new one on in one request (other tags kept, tag
 * counts in step), 0 for the Open lane; only on tickets the caller may see, in their own tenant,
 * with the plan's kanban; bad input is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTag } from '#storage/tags';
import { getTicket } from '#storage/tickets/tickets';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call, type Stack, seedTenant, startStack } from './users-harness.ts';

let stack: Stack;
let inbox: Inbox;
let other: Inbox;

beforeAll(async () => {
  stack = await startStack();
  [inbox, other] = [await seedInbox(stack), await seedInbox(stack)];
}, 90_000);
afterAll(async () => stack?.stop());

const lane = async (box: Inbox, name: string) =>
  (await call('POST /tags', { token: box.admin.token, body: { name, color: '#0a7', kanban: 1 } })).body as { id: number };
const move = (token: string, ticketId: number | string, body: unknown) =>
  call('POST /ticket-tags/{ticketId}/move', { token, params: { ticketId }, body });
const tagIds = async (box: Inbox, id: number) => ((await getTicket(box.companyId, id))?.tags ?? []).map((t) => t.id);

describe('POST /ticket-tags/{ticketId}/move', () => {
  it('moves a card Open -> A -> B -> Open: one tag off, one on, other tags and counts kept', async () => {
    const [a, b, plain] = [await lane(inbox, 'Lane A'), await lane(inbox, 'Lane B'), await lane(inbox, 'Keep me')];
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const token = inbox.inQueue.token;

    const toA = await move(token, ticket.id, { from: 0, to: a.id });
    expect(toA.status).toBe(200);
    expect(toA.body.tags.map((t: { id: number }) => t.id)).toEqual([a.id]);
    await call('PUT /ticket-tags/{ticketId}/{tagId}', { token, params: { ticketId: ticket.id, tagId: plain.id } });

    expect((await move(token, ticket.id, { from: a.id, to: b.id })).status).toBe(200);
    expect(await tagIds(inbox, ticket.id)).toEqual([plain.id, b.id]);
    expect([(await getTag(inbox.companyId, a.id))?.ticketsCount, (await getTag(inbox.companyId, b.id))?.ticketsCount]).toEqual([0, 1]);

    expect((await move(token, ticket.id, { from: b.id, to: 0 })).status).toBe(200);
    expect(await tagIds(inbox, ticket.id)).toEqual([plain.id]);
  });

  it("refuses another tenant's ticket and tag, a ticket the user may not see, forged tokens and a plan without kanban", async () => {
    const mine = await lane(inbox, 'Mine lane');
    const theirTag = await lane(other, 'Their lane');
    const theirs = await other.seedTicket({ status: 'open', userId: other.inQueue.id, queueId: other.q1.id });
    // Another tenant's ticket id does not exist in this tenant (ids are per tenant: pick one beyond ours).
    expect((await move(inbox.admin.token, 999_999, { from: 0, to: mine.id })).status).toBe(404);
    const ours = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const foreignTag = await move(inbox.admin.token, ours.id, { from: 0, to: theirTag.id + 1000 });
    expect(foreignTag.status).toBe(404);
    expect(await tagIds(other, theirs.id)).toEqual([]);
    expect((await move(inbox.otherQueue.token, ours.id, { from: 0, to: mine.id })).status).toBe(403);
    expect((await move(`${inbox.admin.token.slice(0, -4)}AAAA`, ours.id, { from: 0, to: mine.id })).status).toBe(401);
    expect((await move('', ours.id, { from: 0, to: mine.id })).status).toBe(401);
    expect(await tagIds(inbox, ours.id)).toEqual([]);

    const noKanban = await seedTenant(stack, { plan: { useKanban: false } });
    const refused = await move(noKanban.admin.token, 1, { from: 0, to: 1 });
    expect(refused).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
  });

  it.each([
    [{}, 'from'],
    [{ from: 'x', to: 1 }, 'from'],
    [{ from: 0, to: -1 }, 'to'],
    [{ from: 2, to: 2 }, 'to'],
    [{ from: 0, to: 1.5 }, 'to'],
    ['garbage', 'body'],
  ])('%j is a 400 naming %s', async (body, field) => {
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.inQueue.id, queueId: inbox.q1.id });
    const res = await move(inbox.admin.token, ticket.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field });
  });

  it('a non-numeric ticket id is a 400', async () => {
    expect((await move(inbox.admin.token, 'abc', { from: 0, to: 1 })).status).toBe(400);
  });
});
