/**
 * A company's own data (issue 21 §5): POST /companies/export queues a job on `company-exports` and
 * answers its id; the consumer writes a zip of the company's contacts, tickets, messages, settings
 * and users (no secrets) to the bucket; GET /companies/export/{jobId} answers queued, then done with
 * a link that downloads the zip. Attack tests: another company's job 404, a plain user 403, forged
 * and ended tokens 401, a garbage job id 400. Over DynamoDB Local, fauxqs and s3rver.
 */
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as consumer } from '../src/handlers/consumers/company-exports.ts';
import { createConnection, type Env, invoke, seedTicket, startEnv, storeInbound } from './messages-harness.ts';
import { seedTenant, type Tenant, uniq } from './users-harness.ts';

let env: Env;
let a: Tenant;
let b: Tenant;
let sqs: SQSClient;
let queueUrl: string;

beforeAll(async () => {
  env = await startEnv();
  sqs = new SQSClient({ region: 'us-east-1', endpoint: process.env.SQS_ENDPOINT, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'company-exports' }))).QueueUrl as string;
  process.env.QUEUE_URL_COMPANY_EXPORTS = queueUrl;
  [a, b] = await Promise.all([seedTenant(env.stack), seedTenant(env.stack)]);
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

/** The queued jobs, delivered to the consumer as SQS would. */
async function deliverQueued(): Promise<number> {
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  const records = (out.Messages ?? []).map((m) => ({ messageId: m.MessageId, body: m.Body }));
  const result = await consumer({ Records: records } as unknown as SQSEvent);
  expect(result.batchItemFailures).toEqual([]);
  return records.length;
}

describe('company export', () => {
  it('queues a job, writes a zip of contacts, tickets, messages, settings and users, and links it when done', async () => {
    const connectionId = (await createConnection(a)).id;
    const ticket = await seedTicket(a, connectionId);
    const text = `pedido ${uniq('zip')}`;
    await storeInbound(ticket, text);

    const asked = await invoke('POST /companies/export', { token: a.admin.token });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const jobId = asked.body.jobId as string;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const before = await invoke('GET /companies/export/{jobId}', { token: a.admin.token, params: { jobId } });
    expect(before.body).toEqual({ status: 'queued' });
    // Asked again (twice, at once) while it is under way: the same job, one zip to build.
    const again = await Promise.all([1, 2].map(() => invoke('POST /companies/export', { token: a.admin.token })));
    expect(again.map((res) => [res.status, res.body.jobId])).toEqual([
      [202, jobId],
      [202, jobId],
    ]);

    expect(await deliverQueued()).toBe(1);

    const done = await invoke('GET /companies/export/{jobId}', { token: a.admin.token, params: { jobId } });
    expect(done.body).toMatchObject({ status: 'done', url: expect.stringMatching(/X-Amz-Expires=3600/) });
    const zip = unzipSync(new Uint8Array(await (await fetch(done.body.url)).arrayBuffer()));
    const read = (name: string) => JSON.parse(strFromU8(zip[name] as Uint8Array));
    expect(read('company.json')).toMatchObject({ id: a.companyId });
    expect(read('contacts.json').map((c: { number: string }) => c.number)).toContain(ticket.contact.number);
    expect(read('tickets.json').map((t: { id: number }) => t.id)).toContain(ticket.id);
    expect(read(`messages/ticket-${ticket.id}.json`).map((m: { body: string }) => m.body)).toContain(text);
    expect(read('settings.json')).toEqual(expect.any(Array));
    const users = read('users.json');
    expect(users.map((u: { email: string }) => u.email)).toContain(a.admin.email);
    expect(Object.keys(users[0]).sort()).toEqual(
      ['allTicket', 'createdAt', 'email', 'id', 'name', 'profile', 'queueIds', 'super', 'updatedAt', 'whatsappId'].sort(),
    );
    // Another company's data is not in it.
    expect(JSON.stringify(read('users.json'))).not.toContain(b.admin.email);
    // Done: the next request is a new job.
    const next = await invoke('POST /companies/export', { token: a.admin.token });
    expect(next.body.jobId).not.toBe(jobId);
    await deliverQueued();
  });

  it("refuses another company's job, a plain user, forged and ended tokens, a garbage job id", async () => {
    const jobId = (await invoke('POST /companies/export', { token: a.admin.token })).body.jobId as string;
    await deliverQueued();
    const plain = await a.addUser();
    const ended = await a.addUser('admin');
    expect((await invoke('DELETE /auth/logout', { token: ended.token })).status).toBe(204);
    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    expect((await invoke('GET /companies/export/{jobId}', { token: b.admin.token, params: { jobId } })).status).toBe(404);
    for (const token of [plain.token]) {
      expect((await invoke('POST /companies/export', { token })).status).toBe(403);
      expect((await invoke('GET /companies/export/{jobId}', { token, params: { jobId } })).status).toBe(403);
    }
    for (const token of [forged, ended.token, undefined]) {
      expect((await invoke('POST /companies/export', { token })).status).toBe(401);
      expect((await invoke('GET /companies/export/{jobId}', { token, params: { jobId } })).status).toBe(401);
    }
    for (const bad of ['abc', '1', `${jobId}x`, '../../etc'])
      expect((await invoke('GET /companies/export/{jobId}', { token: a.admin.token, params: { jobId: bad } })).status, bad).toBe(400);
  });
});
