/**
 * Provider events -> the inbound FIFO queue. An event counts as handled only once SQS has taken it
 * (durable), so a provider acknowledges WhatsApp (or the simulator) only after that. Events of one
 * contact are queued one after another so the FIFO group keeps WhatsApp's order; other contacts go
 * in parallel.
 *
 * Batching: the events ready to go (the next one of each contact) share SendMessageBatch requests,
 * up to 10 entries and 256 KB a request, each entry with its own MessageGroupId and
 * MessageDeduplicationId. A contact has at most one event in a request (its next waits for SQS's
 * answer), so a failed entry can never let a later one of its contact through ahead of it. When no
 * request is in flight, what is ready goes at the end of the event loop's turn (no added wait); while
 * one is in flight, events gather until it answers, a batch fills or LINGER_MS pass: under load one
 * request carries many events, idle it costs no latency.
 *
 * An event the queue cannot take yet (SQS unreachable, throttled, credentials expiring: the request
 * failing or its entry failing on SQS's side) is retried here with exponential back-off, for as long
 * as it takes: Baileys has already acknowledged it to WhatsApp, which will not deliver it again, so
 * giving up would lose the contact's message. Later events of the same contact wait behind it
 * (order); other contacts' entries of the same request are not held by it. Only two things end the
 * retries, both logged as errors with the event's identity, never silently: the queue refusing the
 * event itself (its content or size: retrying cannot help, and would hold back the contact's later
 * events for good), and shutdown (`close`), after a grace period. A request refused as a whole
 * (its total size, say) is sent again one entry per request, so only the event at fault is refused.
 */
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeQueueBody } from '@conversa/functions/contracts/queue-body';
import {
  dedupeIdForSqs,
  type InboundEvent,
  inboundDedupeId,
  inboundEventSchema,
  inboundGroupId,
} from '@conversa/functions/contracts/session-events';
import type { Logger } from './session-manager.ts';

export interface InboundPublisher {
  /** Resolves once the event is queued; rejects only when the queue refuses it or the publisher closes first. */
  publish(event: InboundEvent): Promise<void>;
  /** Resolves when every publish started so far has settled. */
  idle(): Promise<void>;
  /** Shutdown: events still retrying get `graceMs` more to get through, then fail (logged). */
  close(graceMs?: number): Promise<void>;
}

export interface Backoff {
  /** Wait before the second attempt; doubled after each failure... */
  firstMs: number;
  /** ...up to this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 200, maxMs: 30_000 };
const DEFAULT_CLOSE_GRACE_MS = 10_000;
/** SendMessageBatch's limits: entries per request, and bytes of their bodies together. */
export const MAX_BATCH_ENTRIES = 10;
export const MAX_BATCH_BYTES = 256 * 1024;
/** The longest an event ready to go waits for others while a request is in flight. */
export const LINGER_MS = 3;

/** Refusals of the message itself (SQS error codes): the same body would be refused again. */
const REFUSALS = ['InvalidMessageContents', 'InvalidParameterValue', 'MissingParameter'];
/** A batch request refused as a whole: its entries go again one per request, to find the one at fault. */
const BATCH_REFUSALS = [
  ...REFUSALS,
  'BatchRequestTooLong',
  'TooManyEntriesInBatchRequest',
  'BatchEntryIdsNotDistinct',
  'InvalidBatchEntryId',
];

export class InboundNotQueuedError extends Error {
  constructor(
    readonly reason: 'refused' | 'closed',
    readonly dedupeId: string,
    cause: unknown,
  ) {
    super(`inbound event ${dedupeId} not queued (${reason}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'InboundNotQueuedError';
  }
}

const hasCode = (codes: string[], error: unknown) => {
  const name = String((error as { name?: unknown })?.name ?? '');
  return codes.some((code) => name === code || name.endsWith(`.${code}`));
};

export const refusedByQueue = (error: unknown): boolean => hasCode(REFUSALS, error);

/** The n-th retry's wait: doubling, capped, with ±25% jitter so many stuck contacts do not retry in step. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

/** An event on its way: its request entry, and the publish waiting for it. */
interface Pending {
  entry: Omit<SendMessageBatchRequestEntry, 'Id'>;
  bytes: number;
  about: Record<string, unknown>;
  dedupeId: string;
  attempt: number;
  /** Sent alone: its last request was refused as a whole. */
  alone: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/** An entry SQS did not take, as an error named by its code (as the SDK names a request's error). */
const entryError = (code: string | undefined, message: string | undefined) =>
  Object.assign(new Error(message ?? code ?? 'not in the batch answer'), { name: code ?? 'MissingFromBatchAnswer' });

export function createInboundPublisher(opts: { sqs: SQSClient; queueUrl: string; log: Logger; backoff?: Backoff }): InboundPublisher {
  const tails = new Map<string, Promise<unknown>>();
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  let closed = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  /** Ready to go, in the order they became ready. */
  let ready: Pending[] = [];
  let readyBytes = 0;
  let inFlight = 0;
  let flushScheduled = false;
  let linger: NodeJS.Timeout | undefined;

  function push(pending: Pending): void {
    ready.push(pending);
    readyBytes += pending.bytes;
    schedule();
  }

  function schedule(): void {
    if (!ready.length || flushScheduled) return;
    if (inFlight === 0 || ready.length >= MAX_BATCH_ENTRIES || readyBytes >= MAX_BATCH_BYTES) {
      flushScheduled = true;
      setImmediate(flush);
    } else linger ??= setTimeout(flush, LINGER_MS);
  }

  function flush(): void {
    flushScheduled = false;
    clearTimeout(linger);
    linger = undefined;
    const taking = ready;
    ready = [];
    readyBytes = 0;
    let batch: Pending[] = [];
    let bytes = 0;
    for (const pending of taking) {
      if (batch.length && (pending.alone || batch.length >= MAX_BATCH_ENTRIES || bytes + pending.bytes > MAX_BATCH_BYTES)) {
        void sendBatch(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(pending);
      bytes += pending.bytes;
      if (pending.alone) {
        void sendBatch(batch);
        batch = [];
        bytes = 0;
      }
    }
    if (batch.length) void sendBatch(batch);
  }

  async function sendBatch(batch: Pending[]): Promise<void> {
    inFlight++;
    try {
      const out = await opts.sqs.send(
        new SendMessageBatchCommand({ QueueUrl: opts.queueUrl, Entries: batch.map((p, i) => ({ Id: String(i), ...p.entry })) }),
      );
      const failed = new Map((out.Failed ?? []).map((f) => [f.Id, f]));
      const taken = new Set((out.Successful ?? []).map((s) => s.Id));
      for (const [i, pending] of batch.entries()) {
        const failure = failed.get(String(i));
        if (!failure && taken.has(String(i))) {
          succeeded(pending);
          continue;
        }
        const error = entryError(failure?.Code, failure?.Message);
        void failedAttempt(pending, error, hasCode(REFUSALS, error) ? 'refused' : 'transient');
      }
    } catch (error) {
      // Refused as a whole: alone, that is the event's own refusal; with others, each goes again alone.
      const refused = hasCode(BATCH_REFUSALS, error);
      for (const pending of batch) void failedAttempt(pending, error, !refused ? 'transient' : batch.length > 1 ? 'split' : 'refused');
    } finally {
      inFlight--;
      schedule();
    }
  }

  function succeeded(pending: Pending): void {
    if (pending.attempt > 1) opts.log.info('inbound event queued after retrying', { ...pending.about, attempts: pending.attempt });
    pending.resolve();
  }

  /** `split`: its request, of several entries, was refused as a whole; it goes again alone, at once. */
  async function failedAttempt(pending: Pending, error: unknown, failure: 'transient' | 'refused' | 'split'): Promise<void> {
    const { about, attempt } = pending;
    if (failure === 'split') {
      pending.alone = true;
      return push(pending);
    }
    if (failure === 'refused') {
      opts.log.error('inbound event refused by the queue; not retried', { ...about, error: String(error) });
      return pending.reject(new InboundNotQueuedError('refused', pending.dedupeId, error));
    }
    if (closed) {
      opts.log.error('inbound event not queued before shutdown', { ...about, attempts: attempt, error: String(error) });
      return pending.reject(new InboundNotQueuedError('closed', pending.dedupeId, error));
    }
    const delayMs = backoffDelay(attempt, backoff);
    opts.log.warn('inbound event not queued yet; retrying', { ...about, attempt, delayMs, error: String(error) });
    await sleep(delayMs);
    pending.attempt++;
    push(pending);
  }

  function send(event: InboundEvent): Promise<void> {
    const dedupeId = inboundDedupeId(event);
    const body = encodeQueueBody(event);
    return new Promise<void>((resolve, reject) => {
      push({
        entry: { MessageBody: body, MessageGroupId: inboundGroupId(event), MessageDeduplicationId: dedupeIdForSqs(dedupeId) },
        bytes: Buffer.byteLength(body, 'utf8'),
        about: { kind: event.kind, companyId: event.companyId, connectionId: event.connectionId, dedupeId },
        dedupeId,
        attempt: 1,
        alone: false,
        resolve,
        reject,
      });
    });
  }

  const idle = async () => {
    while (tails.size) await Promise.allSettled([...tails.values()]);
  };

  return {
    publish(raw) {
      // Validate here, at the edge of the queue: a malformed event is a bug of this host, not the pipeline's.
      const event = inboundEventSchema.parse(raw);
      const group = inboundGroupId(event);
      const previous = tails.get(group) ?? Promise.resolve();
      const mine = previous.catch(() => undefined).then(() => send(event));
      tails.set(group, mine);
      void mine
        .catch(() => undefined)
        .then(() => {
          if (tails.get(group) === mine) tails.delete(group);
        });
      return mine;
    },
    idle,
    async close(graceMs = DEFAULT_CLOSE_GRACE_MS) {
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([idle(), grace]);
      closed = true;
      // Each waiting retry makes one last attempt, then fails.
      for (const wake of [...sleepers]) wake();
      await idle();
    },
  };
}
