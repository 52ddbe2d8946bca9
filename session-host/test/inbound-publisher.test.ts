/**
 * The inbound publisher never drops an event silently: a queue that fails is retried with back-off
 * until it takes the event (in order per contact), a refusal of the event itself ends at once with an
 * error log (and does not hold the contact's later events), and shutdown ends the retries after a
 * grace period, logged. No network: SQS is a fake that fails as told.
 */
import type { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { InboundEvent } from '@conversa/functions/contracts/session-events';
import { describe, expect, it } from 'vitest';
import { backoffDelay, createInboundPublisher, InboundNotQueuedError, LINGER_MS } from '../src/inbound-publisher.ts';

type Failure = Error | undefined;
/** Codes SQS reports per entry (the rest fail the whole request, as a network or throttling error does). */
const ENTRY_CODES = ['InvalidMessageContents', 'InvalidParameterValue', 'InternalError'];

/**
 * SQS that answers each entry of a SendMessageBatch with the next scripted failure, then takes it:
 * an entry's own failure (its code in ENTRY_CODES) goes in `Failed`, any other fails the request.
 * `hold` keeps a request's answer back (ms), `requests` lists each request's entries' bodies.
 */
function fakeSqs(script: (body: string, attempt: number) => Failure, hold: (request: number) => number = () => 0) {
  const attempts = new Map<string, number>();
  const queued: { body: string; group: string; dedupe: string }[] = [];
  const requests: string[][] = [];
  const client = {
    async send(command: SendMessageBatchCommand) {
      const entries = command.input.Entries ?? [];
      const request = requests.push(entries.map((e) => e.MessageBody ?? '')) - 1;
      const wait = hold(request);
      if (wait) await new Promise((r) => setTimeout(r, wait));
      const outcomes = entries.map((entry) => {
        const body = entry.MessageBody ?? '';
        const attempt = (attempts.get(body) ?? 0) + 1;
        attempts.set(body, attempt);
        return { entry, failure: script(body, attempt) };
      });
      const requestFailure = outcomes.find((o) => o.failure && !ENTRY_CODES.some((code) => o.failure?.name.endsWith(code)));
      if (requestFailure?.failure) throw requestFailure.failure;
      for (const { entry, failure } of outcomes)
        if (!failure)
          queued.push({ body: entry.MessageBody ?? '', group: entry.MessageGroupId ?? '', dedupe: entry.MessageDeduplicationId ?? '' });
      return {
        Successful: outcomes.filter((o) => !o.failure).map((o) => ({ Id: o.entry.Id })),
        Failed: outcomes
          .filter((o) => o.failure)
          .map((o) => ({ Id: o.entry.Id, Code: o.failure?.name.split('.').pop(), SenderFault: o.failure?.name !== 'InternalError' })),
      };
    },
  } as unknown as SQSClient;
  return { client, queued, attempts, requests };
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

  it('batches ready events of many contacts: 10 entries a request, each with its own group and dedupe id', async () => {
    const sqs = fakeSqs(() => undefined);
    const { log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });
    const numbers = Array.from({ length: 25 }, (_, i) => `55119999${String(i).padStart(5, '0')}`);

    await Promise.all(numbers.map((number, i) => publisher.publish(message(`M${i}`, `hello ${i}`, number))));

    expect(sqs.requests.map((r) => r.length)).toEqual([10, 10, 5]);
    expect(sqs.queued).toHaveLength(25);
    expect(new Set(sqs.queued.map((q) => q.group)).size).toBe(25);
    expect(sqs.queued[3]).toMatchObject({ group: `3:4:${numbers[3]}`, dedupe: '3:4:m:M3' });
  });

  it('puts one event of a contact in a request: its next waits for the answer, other contacts share requests', async () => {
    const sqs = fakeSqs(() => undefined);
    const { log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });

    await Promise.all([
      publisher.publish(message('A1', 'a1', '551100000001')),
      publisher.publish(message('A2', 'a2', '551100000001')),
      publisher.publish(message('A3', 'a3', '551100000001')),
      publisher.publish(message('B1', 'b1', '551100000002')),
    ]);

    const bodies = sqs.requests.map((r) => r.map((body) => JSON.parse(body).message.body));
    expect(bodies).toEqual([['a1', 'b1'], ['a2'], ['a3']]);
  });

  it('gathers events while a request is in flight and sends them together within the linger', async () => {
    const sqs = fakeSqs(
      () => undefined,
      (request) => (request === 0 ? 50 : 0),
    );
    const { log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });
    const first = publisher.publish(message('F', 'first', '551100000000'));
    for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
    expect(sqs.requests).toHaveLength(1); // idle: sent at the end of the turn, no linger
    const later = ['b', 'c', 'd'].map((body, i) => publisher.publish(message(body, body, `55110000000${i + 1}`)));
    const started = Date.now();
    await Promise.all(later);
    // Sent after the linger, not after the first request's 50 ms.
    expect(Date.now() - started).toBeLessThan(45);
    expect(sqs.requests.map((r) => r.length)).toEqual([1, 3]);
    await first;
    expect(LINGER_MS).toBeLessThanOrEqual(5);
  });

  it("retries an entry SQS failed alone, not its request's other entries, keeping its contact's order", async () => {
    const sqs = fakeSqs((body, attempt) => (body.includes('flaky') && attempt <= 2 ? named('InternalError') : undefined));
    const { lines, log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });

    await Promise.all([
      publisher.publish(message('X1', 'flaky', '551100000001')),
      publisher.publish(message('X2', 'after it', '551100000001')),
      publisher.publish(message('Y1', 'other', '551100000002')),
    ]);

    const bodies = sqs.queued.map((q) => JSON.parse(q.body).message.body);
    expect(bodies).toEqual(['other', 'flaky', 'after it']);
    expect(sqs.attempts.get(sqs.queued[0]!.body)).toBe(1); // the other contact's entry went once
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it("refuses only the entry at fault, in a request SQS refused whole or entry by entry; the others and the contact's next go on", async () => {
    const big = 'x'.repeat(300 * 1024);
    const sqs = fakeSqs((body) =>
      body.includes(big) ? named('BatchRequestTooLong') : body.includes('malformed') ? named('InvalidMessageContents') : undefined,
    );
    const { lines, log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });
    // The oversized body makes its whole request refused (as SQS refuses a request over 256 KB).

    const outcomes = await Promise.allSettled([
      publisher.publish(message('BIG', big, '551100000001')),
      publisher.publish(message('OK1', 'fine one', '551100000002')),
      publisher.publish(message('BAD', 'malformed', '551100000003')),
      publisher.publish(message('OK2', 'next of big', '551100000001')),
      publisher.publish(message('OK3', 'next of bad', '551100000003')),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o.reason as InboundNotQueuedError).reason)).toEqual([
      'refused',
      'refused',
    ]);
    expect(sqs.queued.map((q) => JSON.parse(q.body).message.body).sort()).toEqual(['fine one', 'next of bad', 'next of big']);
    expect(
      lines
        .filter((l) => l.level === 'error')
        .map((l) => l.extra?.dedupeId)
        .sort(),
    ).toEqual(['3:4:m:BAD', '3:4:m:BIG']);
  });

  it('keeps a request within 256 KB: big events go in requests of their own size', async () => {
    const sqs = fakeSqs(() => undefined);
    const { log } = recordingLog();
    const publisher = createInboundPublisher({ sqs: sqs.client, queueUrl: 'q', log, backoff: fast });
    const body = (i: number) => `${i}`.repeat(100 * 1024);

    await Promise.all([1, 2, 3].map((i) => publisher.publish(message(`L${i}`, body(i), `55110000000${i}`))));

    expect(sqs.requests.map((r) => r.length)).toEqual([2, 1]);
    for (const request of sqs.requests) expect(request.reduce((sum, b) => sum + Buffer.byteLength(b), 0)).toBeLessThanOrEqual(256 * 1024);
  });

  it('waits longer after each failure, up to the cap, with jitter', () => {
    const backoff = { firstMs: 200, maxMs: 30_000 };
    expect([1, 2, 3, 8, 20].map((n) => backoffDelay(n, backoff, () => 0.5))).toEqual([200, 400, 800, 25_600, 30_000]);
    expect(backoffDelay(1, backoff, () => 0)).toBe(150);
    expect(backoffDelay(1, backoff, () => 1)).toBe(250);
  });
});
