/**
 * Provider events -> the inbound FIFO queue. An event counts as handled only once SendMessage has
 * returned (durable in SQS), so a provider acknowledges WhatsApp (or the simulator) only after that.
 * Events of one contact are sent one after another so the FIFO group keeps WhatsApp's order; other
 * contacts go in parallel.
 */
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { encodeQueueBody } from '@conversa/functions/contracts/queue-body';
import { type InboundEvent, inboundDedupeId, inboundEventSchema, inboundGroupId } from '@conversa/functions/contracts/session-events';

export interface InboundPublisher {
  publish(event: InboundEvent): Promise<void>;
  /** Resolves when every publish started so far has settled (shutdown). */
  idle(): Promise<void>;
}

export function createInboundPublisher(opts: { sqs: SQSClient; queueUrl: string }): InboundPublisher {
  const tails = new Map<string, Promise<unknown>>();

  async function send(event: InboundEvent): Promise<void> {
    await opts.sqs.send(
      new SendMessageCommand({
        QueueUrl: opts.queueUrl,
        MessageBody: encodeQueueBody(event),
        MessageGroupId: inboundGroupId(event),
        MessageDeduplicationId: dedupeIdForSqs(inboundDedupeId(event)),
      }),
    );
  }

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
    async idle() {
      while (tails.size) await Promise.allSettled([...tails.values()]);
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
