/**
 * What bench:inbound counts while `counts.on`: the handlers' AWS requests (a middleware on their SDK
 * clients, `meter`), the SQS traffic the local queue served (node:http's Server, which fauxqs listens
 * through) and the inbound consumer's batches. Importing this module installs the Server counter.
 */
import { type IncomingMessage, Server } from 'node:http';

/** Switches and counters (the maps below hold the rest). */
export const counts = { on: false, handlerEntries: 0, sqsEntries: 0, consumerBatches: 0, consumerRecords: 0 };

interface RequestInput {
  Key?: { sk?: string };
  UpdateExpression?: string;
  IndexName?: string;
  KeyConditionExpression?: string;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * With BENCH_DETAIL set, what a request reads or writes, ids masked: a point request's sort key
 * prefix and update, a Query's index and key values (which list or collection it reads).
 */
function requestDetail(input: RequestInput | undefined): string {
  if (input?.KeyConditionExpression) {
    const keys = Object.values(input.ExpressionAttributeValues ?? {}).filter((v) => typeof v === 'string');
    return ` ${input.IndexName ?? 'table'} ${keys.map((v) => String(v).replace(/\d+/g, 'N')).join(' ')}`;
  }
  return ` ${String(input?.Key?.sk ?? '').replace(/[#:].*$/, '')} ${input?.UpdateExpression?.slice(0, 40) ?? ''}`;
}

/** The handlers' AWS requests by service and command (a middleware on their SDK clients), and their latencies. */
export const requests = new Map<string, number>();
export const requestMs = new Map<string, number[]>();
/** The handlers' SQS requests by action, and the entries of their batch sends. */
export const handlerSqs = new Map<string, number>();
export function meter(service: string, stack: { add: (mw: never, options: { step: 'initialize'; name: string }) => void }): void {
  const counting = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    if (counts.on) {
      const detail = process.env.BENCH_DETAIL ? requestDetail((args as { input?: RequestInput }).input) : '';
      const key = `${service} ${context.commandName?.replace(/Command$/, '') ?? '?'}${detail}`;
      if (service === 'SQS') {
        const action = context.commandName?.replace(/Command$/, '') ?? '?';
        handlerSqs.set(action, (handlerSqs.get(action) ?? 0) + 1);
        counts.handlerEntries += (args as { input?: { Entries?: unknown[] } }).input?.Entries?.length ?? 0;
      }
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const started = performance.now();
      const settled = () => {
        const list = requestMs.get(key) ?? [];
        list.push(performance.now() - started);
        requestMs.set(key, list);
      };
      return next(args).finally(settled);
    }
    return next(args);
  };
  stack.add(counting as never, { step: 'initialize', name: 'inboundBenchMeter' });
}

/**
 * `meter` for the clients of a class the handlers create out of reach (the SQS one, built on its
 * first send inside functions/src/commons/sqs.ts): each is metered on its first request. With
 * `onlyIfFirst`, only a client whose first command is one of those (the handlers' SQS client only
 * sends; the local event source mapping's, which receives and deletes in this process too, stands
 * for AWS's poller and is not the handlers' to count).
 */
export function meterClientsOf(
  service: string,
  Client: { prototype: object },
  meterWith: (service: string, stack: never) => void = meter,
  onlyIfFirst?: string[],
): void {
  const metered = new WeakSet<object>();
  const proto = Client.prototype as { send: (...args: unknown[]) => unknown };
  const send = proto.send;
  proto.send = function (this: { middlewareStack: never }, ...args: unknown[]) {
    if (!metered.has(this)) {
      metered.add(this);
      const command = String((args[0] as object | undefined)?.constructor?.name);
      if (!onlyIfFirst || onlyIfFirst.includes(command)) meterWith(service, this.middlewareStack);
    }
    return send.apply(this, args);
  };
}

/**
 * SQS sends the local queue served, by action (SendMessage, SendMessageBatch) and entries sent.
 * fauxqs answers in this process but the session-host's SDK client lives in its own, out of the
 * meter's reach: its sends are what the queue served less the handlers' (metered above). Counted
 * on node:http's Server, which fauxqs's Fastify listens through (the SDK speaks SQS's JSON protocol,
 * the action in X-Amz-Target).
 */
export const sqsServed = new Map<string, number>();
/** When the session-host's send carrying each bench message reached the inbound queue. */
export const queuedAt = new Map<string, number>();
/** Every SQS request the local queue served, by "<action> <queue name>" (bench:cost bills them per queue). */
export const sqsByQueue = new Map<string, number>();
const serverEmit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (counts.on && event === 'request') {
    const request = args[0] as IncomingMessage;
    const action = String(request.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
    if (String(request.headers['x-amz-target'] ?? '').startsWith('AmazonSQS.')) {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const queue = String((JSON.parse(body || '{}') as { QueueUrl?: string }).QueueUrl ?? '')
          .split('/')
          .pop();
        const key = `${action} ${queue}`;
        sqsByQueue.set(key, (sqsByQueue.get(key) ?? 0) + 1);
      });
    }
    if (action === 'DeleteMessageBatch') {
      // The local event source mapping deletes each invocation's done records in one request: records per batch.
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const input = JSON.parse(body || '{}') as { QueueUrl?: string; Entries?: unknown[] };
        if (!input.QueueUrl?.includes('/inbound')) return;
        counts.consumerBatches++;
        counts.consumerRecords += input.Entries?.length ?? 0;
      });
    }
    if (action === 'SendMessage' || action === 'SendMessageBatch') {
      sqsServed.set(action, (sqsServed.get(action) ?? 0) + 1);
      if (action === 'SendMessage') counts.sqsEntries++;
      else {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          counts.sqsEntries += (JSON.parse(body || '{}') as { Entries?: unknown[] }).Entries?.length ?? 0;
          const at = Date.now();
          for (const [text] of body.matchAll(/bench \d+/g)) if (!queuedAt.has(text)) queuedAt.set(text, at);
        });
      }
    }
  }
  return serverEmit.call(this, event, ...args);
} as typeof Server.prototype.emit;
