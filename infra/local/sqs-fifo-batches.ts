/**
 * SQS's FIFO receive, restored in fauxqs: ReceiveMessage on a FIFO queue hands out up to
 * MaxNumberOfMessages messages of one message group, in order (then of further groups), and locks
 * the group until they are deleted or visible again. fauxqs 1.9 hands out at most ONE message of each
 * group per receive (`dequeueFifo` breaks out of its per-group loop after the first), so locally a
 * group moved one message per receive-invoke-delete round trip: an endpoint's webhook attempts, a
 * conversation's inbound burst, a connection's session commands all ran at a fraction of what the
 * same code does against SQS (bench:webhooks: 20 msg/s to each endpoint fell tens of seconds behind).
 *
 * The fix wraps `SqsQueue.prototype.dequeueFifo`: while the receive has room it asks fauxqs again,
 * with the groups it took this time unlocked in between, so each round takes the next message of
 * every such group; at the end each group holds one lock per message in flight, as fauxqs's own
 * delete and visibility expiry expect. Order within a group holds (each round takes its head), and a
 * group locked by an earlier receive is never touched. Idempotent; `fixSqsFifoBatches` throws at
 * start-up if a fauxqs upgrade moves what it wraps.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Received {
  ReceiptHandle: string;
}

interface FifoQueue {
  fifoLockedGroups: Map<string, number>;
  inflightMessages: Map<string, { message: { messageGroupId?: string } }>;
  dequeueFifo(maxCount: number, visibilityTimeoutOverride?: number, dlqResolver?: unknown): Received[];
}

const WRAPPED = Symbol.for('conversa.fauxqsFifoBatches');
let fixed: Promise<void> | undefined;

export function fixSqsFifoBatches(): Promise<void> {
  fixed ??= (async () => {
    const store = (await import(pathToFileURL(join(fauxqsDir(), 'dist', 'sqs', 'sqsStore.js')).href)) as {
      SqsQueue?: { prototype: FifoQueue & { [WRAPPED]?: boolean } };
    };
    const proto = store.SqsQueue?.prototype;
    if (!proto || typeof proto.dequeueFifo !== 'function')
      throw new Error('fauxqs: SqsQueue.dequeueFifo not found; FIFO receives cannot be fixed');
    if (proto[WRAPPED]) return;
    const takeOnePerGroup = proto.dequeueFifo;
    proto.dequeueFifo = function (this: FifoQueue, maxCount, visibilityTimeoutOverride, dlqResolver) {
      const count = Math.min(maxCount, 10);
      const taken: Received[] = [];
      const locks = new Map<string, number>();
      for (;;) {
        const round = takeOnePerGroup.call(this, count - taken.length, visibilityTimeoutOverride, dlqResolver);
        if (!round.length) break;
        taken.push(...round);
        for (const { ReceiptHandle } of round) {
          const group = this.inflightMessages.get(ReceiptHandle)?.message.messageGroupId ?? '__default';
          locks.set(group, (locks.get(group) ?? 0) + 1);
          // Unlocked for the next round, which then takes this group's next message.
          this.fifoLockedGroups.delete(group);
        }
        if (taken.length >= count) break;
      }
      for (const [group, held] of locks) this.fifoLockedGroups.set(group, held);
      return taken;
    };
    proto[WRAPPED] = true;
  })();
  return fixed;
}

/** fauxqs's package folder, found as Node would (its exports map answers `import` only, not require.resolve). */
function fauxqsDir(): string {
  const paths = createRequire(import.meta.url).resolve.paths('fauxqs') ?? [];
  const dir = paths.map((base) => join(base, 'fauxqs')).find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!dir) throw new Error('fauxqs: package not found from infra/local');
  return dir;
}
