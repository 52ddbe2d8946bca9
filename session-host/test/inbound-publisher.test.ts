/**
 * The inbound publisher never drops an event silently: a queue that fails is retried with back-off
 * until it takes the event (in order per contact), a refusal of the event itself ends at once with an
 * error log (and does not hold the contact's later events), and shutdown ends the retries after a
 * grace period, logged. No network: SQS is a fake that fails as told.
 */
import type { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { InboundEvent } from '@conversa/functions/contracts/session-events';
import { describe, expect, it } from 'vitest';
import { backoffDelay, createInboundPublisher, InboundNotQueuedError } from '../src/inbound-publisher.ts';

type Failure = Error | undefined;

/** SQS that answers each SendMessage with the next scripted failure, then succeeds. */
function fakeSqs(script: (body: string, attempt: number) => Failure) {
  const attempts = new Map<string, number>();
  const queued: { body: string; group: string; dedupe: string }[] = [];
  const client = {
    async send(command: SendMessageCommand) {
      const input = command.input;
      const body = input.MessageBody ?? '';
      const attempt = (attempts.get(body) ?? 0) + 1;
      attempts.set(body, attempt);
      const failure = script(body, attempt);
      if (failure) throw failure;
      queued.push({ body, group: input.MessageGroupId ?? '', dedupe: input.MessageDeduplicationId ?? '' });
      return {};
    },
  } as unknown as SQSClient;
  return { client, queued, attempts };
}

function recordingLog() {
  const lines: { level: string; message: string; extra?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, extra?: Record<string, unknown>) => lines.push({ level, message, extra });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

const named = (name: string) => Object.assign(new Error(name), { name });
const message = (id: string, body: string, number = '5511999990000'): InboundEvent => ({
  kind: 'message',
  companyId: 3,
  connectionId: 4,
  message: { id, fromMe: false, number, isGroup: false, timestamp: 1, body },
});
const fast = { firstMs: 5, maxMs: 20 };

describe('inbound publisher', () => {
  it('retries a queue that fails with back-off until it takes the event, keeping the contact order', async () => {
    const sqs = fakeSqs((body, attempt) => (body.includes('first') && attempt <= 3 ? named('ServiceUnavailable') : undefined));
    const { lines, log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });

    await Promise.all([publisher.publish(message('A', 'first 😀')), publisher.publish(message('B', 'second'))]);

    expect(sqs.queued.map((q) => JSON.parse(q.body).message.body)).toEqual(['first 😀', 'second']);
    expect(sqs.attempts.get(sqs.queued[0]!.body)).toBe(4);
    expect(lines.filter((l) => l.level === 'warn' && l.message.includes('retrying'))).toHaveLength(3);
    expect(lines.some((l) => l.level === 'info' && l.extra?.attempts === 4)).toBe(true);
  });

  it('ends at once, with an error log, when the queue refuses the event itself; the contact goes on', async () => {
    const sqs = fakeSqs((body) => (body.includes('refused') ? named('AWS.SimpleQueueService.InvalidMessageContents') : undefined));
    const { lines, log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });

    const refused = publisher.publish(message('R', 'refused'));
    const next = publisher.publish(message('N', 'next'));
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InboundNotQueuedError);
    expect((error as InboundNotQueuedError).reason).toBe('refused');
    await next;
    expect(sqs.queued.map((q) => JSON.parse(q.body).message.body)).toEqual(['next']);
    expect(lines.find((l) => l.level === 'error')).toMatchObject({ extra: { dedupeId: '3:4:m:R', kind: 'message' } });
  });

  it('on close, gives a stuck event its grace period, then fails it with an error log', async () => {
    const sqs = fakeSqs(() => named('ECONNREFUSED'));
    const { lines, log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });
    const stuck = publisher.publish(message('S', 'stuck')).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await publisher.close(30);
    const error = await stuck;
    expect((error as InboundNotQueuedError).reason).toBe('closed');
    expect(lines.filter((l) => l.level === 'error').map((l) => l.extra?.dedupeId)).toEqual(['3:4:m:S']);
  });

  it('waits longer after each failure, up to the cap, with jitter', () => {
    const backoff = { firstMs: 200, maxMs: 30_000 };
    expect([1, 2, 3, 8, 20].map((n) => backoffDelay(n, backoff, () => 0.5))).toEqual([200, 400, 800, 25_600, 30_000]);
    expect(backoffDelay(1, backoff, () => 0)).toBe(150);
    expect(backoffDelay(1, backoff, () => 1)).toBe(250);
  });
});
