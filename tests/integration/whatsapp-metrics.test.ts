/**
 * The session-host's metrics reach CloudWatch (here the local stack's stand-in, which records every
 * PutMetricData it accepts) under the names infra/lib/monitoring.ts alarms on:
 * - a send the phone network refuses is counted in SendFailures;
 * - a killed session-host leaves its sessions without a live owner, and the host that starts again
 *   reports them in OrphanSessions at its first takeover scan, then 0 once it runs them again.
 * The local session-host publishes every 2 s (METRICS_INTERVAL_MS), AWS's every minute.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { encodeQueueBody } from '@conversa/functions/contracts/queue-body';
import { type SessionCommand, sessionCommandDedupeId, sessionCommandGroupId } from '@conversa/functions/contracts/session-events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RecordedDatum } from '../../infra/local/cloudwatch.ts';
import { SESSION_HOST_METRICS } from '../../session-host/src/metric-names.ts';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  ok,
  type Simulator,
  simulator,
  stackControl,
  waitLinked,
  waitUntil,
} from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let setup: ConnectionSetup;
let sqs: SQSClient;
let ticketId: number;
const contact = `55318${randomInt(10_000_000, 99_999_999)}`;

/** The points the stand-in accepted for one of the host's metrics, received after `since` (epoch ms). */
async function recorded(metricName: string, since: number): Promise<RecordedDatum[]> {
  const query = new URLSearchParams({ namespace: SESSION_HOST_METRICS.namespace, metricName });
  const res = await fetch(`${inject('env').CLOUDWATCH_ENDPOINT}/_recorded?${query}`);
  if (!res.ok) throw new Error(`GET /_recorded -> ${res.status}`);
  return ((await res.json()) as RecordedDatum[]).filter((d) => d.receivedAt >= since);
}

beforeAll(async () => {
  const env = inject('env');
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  sqs = new SQSClient({
    endpoint: env.SQS_ENDPOINT,
    region: env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  tenant = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'wa-metrics');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: [] });
  await sim.send(setup.simId, contact, 'hello', 'Metrics contact');
  ticketId = await waitUntil('the contact’s ticket', async () => {
    const page = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
      token: tenant.admin.token,
      query: { showAll: 'true', status: 'pending' },
    });
    return page.tickets.find((t) => t.contact.number === contact)?.id;
  });
}, 60_000);

afterAll(() => {
  sqs?.destroy();
});

describe('session-host metrics', () => {
  it('counts a send the phone network refuses in SendFailures', async () => {
    // Prepare: a send command as the functions write it, to a number WhatsApp refuses (the API
    // validates numbers, so only the session-commands queue can carry one).
    const since = Date.now();
    const command: SessionCommand = {
      kind: 'send',
      companyId: tenant.companyId,
      connectionId: setup.connectionId,
      commandId: randomUUID(),
      messageId: randomUUID(),
      ticketId,
      number: 'not-a-number',
      isGroup: false,
      body: 'never delivered',
    };
    // Act
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: inject('env').QUEUE_URL_SESSION_COMMANDS,
        MessageBody: encodeQueueBody(command),
        MessageGroupId: sessionCommandGroupId(command),
        MessageDeduplicationId: sessionCommandDedupeId(command),
      }),
    );
    // Assess: the failure arrives in a PutMetricData within a few publishing intervals.
    const failures = await waitUntil(
      'a SendFailures point counting the refused send',
      async () => {
        const points = await recorded(SESSION_HOST_METRICS.sendFailures, since);
        const total = points.reduce((sum, d) => sum + (d.value ?? 0), 0);
        return total >= 1 ? points : undefined;
      },
      45_000,
      500,
    );
    expect(failures.every((d) => d.unit === 'Count' && d.statisticValues === undefined)).toBe(true);
  });

  it('a killed host’s sessions are OrphanSessions at the restarted host’s first scan, then 0 once it runs them', async () => {
    // Act: the host dies as a Fargate task does (nothing released, nothing flushed) and starts again.
    const control = stackControl(inject('controlUrl'));
    await control.killSessionHost('SIGKILL');
    const restartedAt = Date.now();
    await control.startSessionHost();
    await waitLinked(sim, setup.simId);
    // Assess: the first scan saw at least this connection's session with nobody running it...
    const first = await waitUntil(
      'an OrphanSessions point from the restarted host',
      async () => (await recorded(SESSION_HOST_METRICS.orphanSessions, restartedAt))[0],
      20_000,
      500,
    );
    expect(first.unit).toBe('Count');
    expect(first.statisticValues?.Maximum).toBeGreaterThanOrEqual(1);
    // ...and a later scan, with every session taken over, saw none.
    await waitUntil(
      'an OrphanSessions point of 0 once the sessions run again',
      async () => (await recorded(SESSION_HOST_METRICS.orphanSessions, restartedAt)).some((d) => d.statisticValues?.Maximum === 0),
      30_000,
      500,
    );
  }, 90_000);
});
