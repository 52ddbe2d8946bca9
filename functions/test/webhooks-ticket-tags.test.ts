/**
 * `ticket.updated` when only a ticket's tags change (issue 23 §2, domain/tags/ticket-tags.ts): sync,
 * add, clear, on an open or a closed ticket, and a tag renamed or deleted on every ticket that
 * carries it; the payload is the ticket as the API answers it (its tags in it); nothing when the
 * tags stay as they were.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Inbox, seedInbox } from './tickets-harness.ts';
import { call } from './users-harness.ts';
import { type Body, deliverQueued, drain, startWebhookEnv, type WebhookEnv } from './webhooks-harness.ts';

let env: WebhookEnv;
let inbox: Inbox;

beforeAll(async () => {
  env = await startWebhookEnv();
  inbox = await seedInbox(env.stack);
  const made = await call('POST /webhooks', {
    token: inbox.admin.token,
    body: { url: env.receiverUrl, events: ['ticket.updated', 'ticket.closed'] },
  });
  expect(made.status).toBe(201);
}, 120_000);
afterAll(async () => {
  await env?.stop();
});
beforeEach(async () => {
  await drain(env, env.urls.deliveries, 100);
  env.received.length = 0;
});

const tagOf = async (name: string) =>
  (await call('POST /tags', { token: inbox.admin.token, body: { name, color: '#123456' } })).body as { id: number; name: string };
/** What the receiver got from what is queued now. */
async function events(): Promise<Body[]> {
  await deliverQueued(env, 100);
  return env.received.splice(0).map((r) => JSON.parse(r.body) as Body);
}
const tagNames = (event: Body | undefined) => ((event?.data.ticket.tags ?? []) as Body[]).map((t) => t.name);

describe('a ticket whose tags change', () => {
  it('is a ticket.updated carrying the ticket as the API answers it, for sync, add and clear; none when nothing changed', async () => {
    // Prepare
    const [red, blue] = [await tagOf('Hook red'), await tagOf('Hook blue')];
    const ticket = await inbox.seedTicket({ status: 'open', userId: inbox.admin.id, queueId: inbox.q1.id });
    const token = inbox.admin.token;

    // Act + Assess: sync
    const synced = await call('POST /tags/sync', { token, body: { ticketId: ticket.id, tags: [red.id] } });
    expect(synced.status).toBe(200);
    const [onSync, ...more] = await events();
    expect(more).toEqual([]);
    expect(onSync).toMatchObject({ event: 'ticket.updated', companyId: inbox.companyId });
    expect(onSync?.data).toEqual({ ticket: synced.body });
    expect(tagNames(onSync)).toEqual(['Hook red']);

    // The same tag again, and the same set again: nothing changed, nothing sent
    expect((await call('PUT /ticket-tags/{ticketId}/{tagId}', { token, params: { ticketId: ticket.id, tagId: red.id } })).status).toBe(200);
    expect((await call('POST /tags/sync', { token, body: { ticketId: ticket.id, tags: [red.id] } })).status).toBe(200);
    expect(await events()).toEqual([]);

    // Add, then clear
    await call('PUT /ticket-tags/{ticketId}/{tagId}', { token, params: { ticketId: ticket.id, tagId: blue.id } });
    const [onAdd] = await events();
    expect(tagNames(onAdd)).toEqual(['Hook red', 'Hook blue']);
    const cleared = await call('DELETE /ticket-tags/{ticketId}', { token, params: { ticketId: ticket.id } });
    const [onClear] = await events();
    expect(onClear?.event).toBe('ticket.updated');
    expect(onClear?.data).toEqual({ ticket: cleared.body });
    expect(tagNames(onClear)).toEqual([]);
  });

  it('a closed ticket tagged is ticket.updated, not ticket.closed again', async () => {
    const tag = await tagOf('Hook after close');
    const ticket = await inbox.seedTicket({ status: 'closed', userId: inbox.admin.id, queueId: inbox.q1.id });
    await call('PUT /ticket-tags/{ticketId}/{tagId}', { token: inbox.admin.token, params: { ticketId: ticket.id, tagId: tag.id } });
    const sent = await events();
    expect(sent.map((e) => [e.event, e.data.ticket.id, e.data.ticket.status])).toEqual([['ticket.updated', ticket.id, 'closed']]);
  });

  it('a tag renamed, then deleted: a ticket.updated for each ticket that carries it', async () => {
    // Prepare
    const tag = await tagOf('Hook old name');
    const tickets = [
      await inbox.seedTicket({ status: 'open', userId: inbox.admin.id, queueId: inbox.q1.id }),
      await inbox.seedTicket({ status: 'pending', queueId: inbox.q1.id }),
    ];
    for (const ticket of tickets)
      await call('PUT /ticket-tags/{ticketId}/{tagId}', { token: inbox.admin.token, params: { ticketId: ticket.id, tagId: tag.id } });
    await events();

    // Act: renamed
    expect(
      (await call('PUT /tags/{id}', { token: inbox.admin.token, params: { id: tag.id }, body: { name: 'Hook new name' } })).status,
    ).toBe(200);
    const renamed = await events();
    // Act: deleted
    expect((await call('DELETE /tags/{id}', { token: inbox.admin.token, params: { id: tag.id } })).status).toBe(204);
    const deleted = await events();

    // Assess
    const ids = tickets.map((t) => t.id).sort();
    expect(renamed.map((e) => e.event)).toEqual(['ticket.updated', 'ticket.updated']);
    expect(renamed.map((e) => e.data.ticket.id).sort()).toEqual(ids);
    expect(renamed.map(tagNames)).toEqual([['Hook new name'], ['Hook new name']]);
    expect(deleted.map((e) => e.data.ticket.id).sort()).toEqual(ids);
    expect(deleted.map(tagNames)).toEqual([[], []]);
  });
});
