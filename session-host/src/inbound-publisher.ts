/**
 * Provider events -> the inbound FIFO queue. An event counts as handled only once SendMessage has
 * returned (durable in SQS), so a provider acknowledges WhatsApp (or the simulator) only after that.
 * Events of one contact are sent one after another so the FIFO group keeps WhatsApp's order; other
 * contacts go in parallel.
 *
 * An event the queue cannot take yet (SQS unreachable, throttled, credentials expiring) is retried
 * here with exponential back-off, for as long as it takes: Baileys has already acknowledged it to
 * WhatsApp, which will not deliver it again, so giving up would lose the contact's message. Later
 * events of the same contact wait behind it (order). Only two things end the retries, both logged as
 * errors with the event's identity, never silently: the queue refusing the event itself (its content
 * or size: retrying cannot help, and would hold back the contact's later events for good), and
 * shutdown (`close`), after a grace period.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeQueueBody } from '@conversa/functions/contracts/queue-body';
import { type InboundEvent, inboundDedupeId, inboundEventSchema, inboundGroupId } from '@conversa/functions/contracts/session-events';
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

/** Refusals of the message itself (SQS error codes): the same body would be refused again. */
const REFUSALS = ['InvalidMessageContents', 'InvalidParameterValue', 'MissingParameter'];

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

export function refusedByQueue(error: unknown): boolean {
  const name = String((error as { name?: unknown })?.name ?? '');
  return REFUSALS.some((code) => name === code || name.endsWith(`.${code}`));
}

/** The n-th retry's wait: doubling, capped, with ±25% jitter so many stuck contacts do not retry in step. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const base = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

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

  async function send(event: InboundEvent): Promise<void> {
    const dedupeId = inboundDedupeId(event);
    const body = encodeQueueBody(event);
    const about = { kind: event.kind, companyId: event.companyId, connectionId: event.connectionId, dedupeId };
    for (let attempt = 1; ; attempt++) {
      try {
        await opts.sqs.send(
          new SendMessageCommand({
            QueueUrl: opts.queueUrl,
            MessageBody: body,
            MessageGroupId: inboundGroupId(event),
            MessageDeduplicationId: dedupeIdForSqs(dedupeId),
          }),
        );
        if (attempt > 1) opts.log.info('inbound event queued after retrying', { ...about, attempts: attempt });
        return;
      } catch (error) {
        if (refusedByQueue(error)) {
          opts.log.error('inbound event refused by the queue; not retried', { ...about, error: String(error) });
          throw new InboundNotQueuedError('refused', dedupeId, error);
        }
        if (closed) {
          opts.log.error('inbound event not queued before shutdown', { ...about, attempts: attempt, error: String(error) });
          throw new InboundNotQueuedError('closed', dedupeId, error);
        }
        const delayMs = backoffDelay(attempt, backoff);
        opts.log.warn('inbound event not queued yet; retrying', { ...about, attempt, delayMs, error: String(error) });
        await sleep(delayMs);
      }
    }
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

/** SQS dedupe ids: at most 128 characters from a fixed set. Longer or odd ids are hashed, stably. */
export function dedupeIdForSqs(id: string): string {
  if (id.length <= 128 && /^[\w!"#$%&'()*+,\-./:;<=>?@[\\\]^`{|}~]+$/.test(id)) return id;
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < id.length; i++) {
    h1 = Math.imul(h1 ^ id.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 + id.charCodeAt(i), 2654435761) >>> 0;
  }
  const safe = id.replace(/[^\w:.-]/g, '_').slice(0, 100);
  return `${safe}#${h1.toString(16)}${h2.toString(16)}`;
}
