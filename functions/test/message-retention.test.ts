/**
 * Message retention (issue 21 §5): with `messageRetentionDays` set, the retention sweep removes the
 * messages older than that many days with their media objects, their words in the search index and
 * the ticket's preview of them, keeps newer messages, the tickets and the dashboard's counters, and
 * a company with 0 keeps everything. The setting accepts 0..3650 whole days. Over DynamoDB Local and
 * s3rver, through the settings handler and the job's domain function.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '#adapters/wiring';
import { deleteMediaObjects, putMedia } from '#domain/media/bucket';
import { runMessageRetention } from '#domain/sweeps/retention';
import { dashboardPk } from '#storage/dashboard-counters';
import { db, table } from '#storage/db';
import { getMessage } from '#storage/messages/messages';
import { readSearchHits } from '#storage/search-reads';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import { createConnection, type Env, invoke, readObject, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { drainTableStreams } from './support/table-streams.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

const DAY = 86_400_000;
let env: Env;
let a: Tenant;
let b: Tenant;
let connA: number;
let connB: number;

beforeAll(async () => {
  env = await startEnv({ streams: true });
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
  [connA, connB] = await Promise.all([createConnection(a).then((c) => c.id), createConnection(b).then((c) => c.id)]);
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const word = (stem: string) => `${stem}${uniq('').replace(/[^a-z]/g, '')}x`;
/** The tickets the index lists for a message word, once the table's stream indexed what was written. */
const found = async (companyId: number, term: string) => {
  await drainTableStreams();
  return (await readSearchHits(companyId, 'M', term, { limit: 10 })).items.map((hit) => hit.id);
};
const setRetention = (t: Tenant, value: string, token = t.admin.token) =>
  invoke('PUT /settings/{key}', { token, params: { key: 'messageRetentionDays' }, json: { value } });

async function dashboardCounts(companyId: number): Promise<string> {
  const out = await db().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': dashboardPk(companyId) },
    }),
  );
  return JSON.stringify(out.Items);
}

/** A ticket with a message `ageDays` old holding `text` and a photo of its own. */
async function oldMessage(t: Tenant, connectionId: number, ticket: TicketRecord, ageDays: number, text: string) {
  const key = `${t.companyId}/whatsapp/${connectionId}/${uniq('OLD')}.jpg`;
  await putMedia(key, Buffer.from('photo'), 'image/jpeg');
  const message = await storeInbound(ticket, text, Date.now() - ageDays * DAY, {
    mediaType: 'image',
    mediaPath: key,
    mediaUrl: `/public/${key}`,
  });
  return { message, key };
}

describe('message retention', () => {
  it('accepts 0..3650 whole days from an admin, nothing else', async () => {
    for (const value of ['abc', '-1', '1.5', '3651', '99999', '']) expect((await setRetention(a, value)).status, value).toBe(400);
    const plain = await a.addUser();
    expect((await setRetention(a, '30', plain.token)).status).toBe(403);
    expect((await setRetention(a, '3650')).status).toBe(200);
    expect((await setRetention(a, '0')).status).toBe(200);
  });

  it('removes what is older than the retention with its media and words, keeps newer messages, tickets and counters; 0 keeps all', async () => {
    // Prepare: A keeps 30 days, B keeps everything (0, the default).
    expect((await setRetention(a, '30')).status).toBe(200);
    const ticket = await seedTicket(a, connA, { status: 'open', userId: a.admin.id });
    const oldWord = word('antigo');
    const newWord = word('recente');
    const old = await oldMessage(a, connA, ticket, 40, `pedido ${oldWord}`);
    const recent = await storeInbound(ticket, `pedido ${newWord}`, Date.now() - 2 * DAY);
    // A ticket whose only (and last) message is old: its preview is that message's text.
    const quiet = await seedTicket(a, connA);
    const quietWord = word('silencio');
    const quietOld = await storeInbound(quiet, `mensagem ${quietWord}`, Date.now() - 45 * DAY);
    expect((await getTicket(a.companyId, quiet.id))?.lastMessage).toContain(quietWord);
    const ticketB = await seedTicket(b, connB);
    const bWord = word('guardado');
    const oldB = await oldMessage(b, connB, ticketB, 400, `pedido ${bWord}`);
    expect(await found(a.companyId, oldWord)).toEqual([ticket.id]);
    const counters = await dashboardCounts(a.companyId);

    // Act
    const report = await runMessageRetention(new Date(), { deleteMediaObjects, deadline: Number.POSITIVE_INFINITY });

    // Assess: the old message, its photo and its word are gone; the ticket and the newer message stay.
    expect(report.messages).toBeGreaterThanOrEqual(2);
    expect(await getMessage(a.companyId, ticket.id, old.message.id)).toBeUndefined();
    expect(await readObject(old.key)).toBeUndefined();
    expect(await found(a.companyId, oldWord)).toEqual([]);
    expect(await getMessage(a.companyId, ticket.id, recent.id)).toBeDefined();
    expect(await found(a.companyId, newWord)).toEqual([ticket.id]);
    expect((await getTicket(a.companyId, ticket.id))?.lastMessage).toContain(newWord);
    expect(await getMessage(a.companyId, quiet.id, quietOld.id)).toBeUndefined();
    expect(await getTicket(a.companyId, quiet.id)).toMatchObject({ id: quiet.id, lastMessage: '' });
    expect(await dashboardCounts(a.companyId)).toBe(counters);
    const listed = await invoke('GET /messages/{id}', { token: a.admin.token, params: { id: ticket.id } });
    expect(listed.status).toBe(200);
    expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual([recent.id]);
    // 0: B's year-old message, photo and word stay.
    expect(await getMessage(b.companyId, ticketB.id, oldB.message.id)).toBeDefined();
    expect(await readObject(oldB.key)).toBeDefined();
    expect(await found(b.companyId, bWord)).toEqual([ticketB.id]);

    // A second run finds nothing more of A's to remove.
    const again = await runMessageRetention(new Date(), { deleteMediaObjects, deadline: Number.POSITIVE_INFINITY });
    expect(await getMessage(a.companyId, ticket.id, recent.id)).toBeDefined();
    expect(again.unfinished).toBe(0);
  });
});
