/**
 * Queues, declared once (like the route table): the CDK stack creates each with its DLQ, the local
 * stack creates them in fauxqs, and consumers are wired from here.
 */
export interface MessageQueueDeclaration {
  /** Logical name; env var QUEUE_URL_<NAME> carries its URL. */
  name: string;
  fifo: boolean;
  /** Lambda consumer under functions/src/handlers/consumers/<consumer>.ts; absent when the session-host consumes it. */
  consumer?: string;
  visibilityTimeoutSeconds: number;
  /** Deliveries before a message moves to the DLQ. */
  maxReceiveCount: number;
  batchSize?: number;
}

export const messageQueues: readonly MessageQueueDeclaration[] = [
  /** WhatsApp events from the session-host; FIFO grouped per contact keeps per-contact order. */
  { name: 'inbound', fifo: true, consumer: 'inbound', visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
  /** Commands (send, delete, edit, start, logout, new QR) to the session-host that owns the session. */
  { name: 'session-commands', fifo: true, visibilityTimeoutSeconds: 60, maxReceiveCount: 5 },
  /**
   * The campaign engine's clock (domain/campaigns/engine.ts): one chain of tick messages per
   * connection, each delayed by the pace (DelaySeconds, so standard, not FIFO), plus the delayed
   * start of a scheduled campaign. A tick is guarded by its connection's sequence number, so a
   * duplicate or stale tick does nothing.
   */
  { name: 'campaign-ticks', fifo: false, consumer: 'campaign-ticks', visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
  /**
   * Turns of the AI prompts and integrations that hold a ticket (domain/bots): the inbound pipeline
   * queues one per contact message, the consumer calls the provider (seconds, not the pipeline's
   * milliseconds) and sends its answers. FIFO grouped per ticket: a conversation's turns in order.
   * Visibility covers the provider's timeout plus Typebot's pauses between bubbles.
   */
  { name: 'bot-turns', fifo: true, consumer: 'bot-turns', visibilityTimeoutSeconds: 120, maxReceiveCount: 3, batchSize: 10 },
  /**
   * A big tenant's realtime frames (realtime/fanout.ts): packed frames and the sockets that get
   * them, posted by the consumer. FIFO grouped by a hash of the socket: a socket's frames in order.
   */
  { name: 'realtime-fanout', fifo: true, consumer: 'realtime-fanout', visibilityTimeoutSeconds: 30, maxReceiveCount: 3, batchSize: 10 },
  /**
   * A company's data export (issue 21 §5, POST /companies/export): one message per job, built by the
   * consumer (every contact, ticket and message into a zip), minutes for a large company. The
   * visibility is six times the consumer's 5-minute timeout, as the stack requires.
   */
  { name: 'company-exports', fifo: false, consumer: 'company-exports', visibilityTimeoutSeconds: 1800, maxReceiveCount: 3, batchSize: 1 },
  /**
   * Webhook deliveries (issue 23 §2, adapters/webhook-queue.ts): one message per attempt, FIFO
   * grouped per endpoint, so a slow or failing receiver delays only its own group. A refused
   * attempt is not a consumer failure (its retry waits on webhook-retries); the DLQ gets what the
   * consumer itself could not do, and the deliveries whose retries ran out. The visibility is six
   * times the consumer's timeout (150 s: a batch of one endpoint's 10 attempts at 10 s each).
   */
  {
    name: 'webhook-deliveries',
    fifo: true,
    consumer: 'webhook-deliveries',
    visibilityTimeoutSeconds: 900,
    maxReceiveCount: 5,
    batchSize: 10,
  },
  /**
   * A failed webhook attempt's retry, waiting its backoff with DelaySeconds (FIFO queues have no
   * per-message delay); its consumer moves it back to the endpoint's FIFO group when due.
   */
  { name: 'webhook-retries', fifo: false, consumer: 'webhook-retries', visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
];
