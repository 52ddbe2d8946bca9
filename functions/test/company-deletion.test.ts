/**
 * Deleting a company (issue 21 §5): a super admin's DELETE /companies/{id} leaves no item of the
 * table whose keys name the company (pk, sk or a GSI key under `C#<id>`, a `companyId` of it) and no
 * object of the bucket under `<id>/`, whatever area wrote it: users, contacts, tickets, messages and
 * their media, tags, queues, settings, the audit trail, quick messages with a file, a company export
 * zip. Another company's data is untouched, and a second DELETE after a crash half way finishes.
 * Over DynamoDB Local, s3rver, cognito-local and ElasticMQ, through the handlers.
 */
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '#adapters/wiring';
import { putMedia } from '#domain/media/bucket';
import { purgeTenantData } from '#storage/companies/tenant-data';
import { handler as exportConsumer } from '../src/handlers/consumers/company-exports.ts';
import { createConnection, type Env, invoke, multipart, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { scanBucket, scanTable } from './store-scan.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let root: Tenant;
let sqs: SQSClient;
let queueUrl: string;

beforeAll(async () => {
  env = await startEnv();
  sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'company-exports' }))).QueueUrl as string;
  process.env.QUEUE_URL_COMPANY_EXPORTS = queueUrl;
  root = await seedTenant(env.stack, { super: true });
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const ok = (res: { status: number; body: unknown }, what: string) =>
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);

/** A company with something in every area: users, contacts, tickets, messages with media, tags, queues, settings, audit, quick messages, an export. */
async function seedEverything(t: Tenant): Promise<void> {
  const token = t.admin.token;
  await t.addUser('user');
  const connectionId = (await createConnection(t)).id;
  ok(
    await invoke('POST /contacts', {
      token,
      json: { name: uniq('Contato '), number: `55219${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` },
    }),
    'contact',
  );
  ok(await invoke('POST /tags', { token, json: { name: uniq('Tag ') } }), 'tag');
  ok(await invoke('POST /queue', { token, json: { name: uniq('Fila '), color: '#123456' } }), 'queue');
  ok(await invoke('PUT /settings/{key}', { token, params: { key: 'userRating' }, json: { value: 'enabled' } }), 'setting');
  const ticket = await seedTicket(t, connectionId);
  await storeInbound(ticket, `pedido ${uniq('texto')}`);
  const mediaKey = `${t.companyId}/whatsapp/${connectionId}/${uniq('WAIMG')}.jpg`;
  await putMedia(mediaKey, Buffer.from('foto'), 'image/jpeg');
  await storeInbound(ticket, '', Date.now(), {
    mediaType: 'image',
    mediaPath: mediaKey,
    mediaUrl: `/public/${mediaKey}`,
    mediaName: 'foto.jpg',
  });
  const quick = await invoke('POST /quick-messages', {
    token,
    json: { shortcode: uniq('tabela'), message: 'tabela de precos', geral: true },
  });
  ok(quick, 'quick message');
  ok(
    await invoke('POST /quick-messages/{id}/media-upload', {
      token,
      params: { id: quick.body.id },
      raw: multipart([{ name: 'file', value: Buffer.from('price table'), filename: 'tabela.pdf', contentType: 'application/pdf' }]),
    }),
    'quick message file',
  );
  ok(await invoke('POST /companies/export', { token }), 'export');
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  const records = (out.Messages ?? []).map((m) => ({ messageId: m.MessageId, body: m.Body }));
  expect((await exportConsumer({ Records: records } as unknown as SQSEvent)).batchItemFailures).toEqual([]);
}

/** What the stores still hold of company `id`: items whose keys or companyId name it, objects under its prefix. */
async function remains(id: number): Promise<{ items: string[]; objects: string[] }> {
  const tenant = `C#${id}`;
  const names = (value: unknown) => typeof value === 'string' && (value === tenant || value.startsWith(`${tenant}#`));
  const keyNames = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk'];
  const items = (await scanTable())
    .filter((item) => item.companyId === id || keyNames.some((name) => names(item[name])))
    .map((item) => `${item.pk} ${item.sk}`);
  const objects = (await scanBucket()).map((object) => object.key).filter((key) => key.startsWith(`${id}/`));
  return { items, objects };
}

describe('DELETE /companies/{id}', () => {
  it('leaves no item and no object of the company, and the other company whole', async () => {
    // Prepare
    const [doomed, kept] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
    await seedEverything(doomed);
    await seedEverything(kept);
    const before = await remains(doomed.companyId);
    expect(before.items.some((key) => key.includes('#AUDIT'))).toBe(true);
    expect(before.objects.some((key) => key.includes('/exports/'))).toBe(true);
    expect(before.objects.some((key) => key.includes('/quick-messages/'))).toBe(true);
    const keptBefore = await remains(kept.companyId);
    // Act
    const res = await invoke('DELETE /companies/{id}', { token: root.admin.token, params: { id: doomed.companyId } });
    // Assess
    expect(res.status).toBe(204);
    expect(await remains(doomed.companyId)).toEqual({ items: [], objects: [] });
    const keptAfter = await remains(kept.companyId);
    expect(keptAfter.items.sort()).toEqual(keptBefore.items.sort());
    expect(keptAfter.objects.sort()).toEqual(keptBefore.objects.sort());
    expect((await invoke('GET /contacts', { token: kept.admin.token })).body.contacts.length).toBeGreaterThan(0);
  }, 120_000);

  it('finishes on a retry after a run that stopped half way (table cleared, media and record left)', async () => {
    // Prepare: a run that died after clearing the table, before the bucket and the company record.
    const doomed = await seedTenant(env.stack);
    await seedEverything(doomed);
    await purgeTenantData(doomed.companyId);
    expect((await remains(doomed.companyId)).objects.length).toBeGreaterThan(0);
    // Act
    const res = await invoke('DELETE /companies/{id}', { token: root.admin.token, params: { id: doomed.companyId } });
    // Assess
    expect(res.status).toBe(204);
    expect(await remains(doomed.companyId)).toEqual({ items: [], objects: [] });
    expect((await invoke('DELETE /companies/{id}', { token: root.admin.token, params: { id: doomed.companyId } })).status).toBe(404);
  }, 120_000);
});
