/**
 * Coalesces a unit of work's realtime events per socket (issue 15): at 1,000 messages a second with
 * ten attendants' sockets seeing each, one PostToConnection per event and socket is 10,000 calls a
 * second, API Gateway's whole account throttle. Events added within `windowMs` of the first one still
 * waiting go out as ONE frame per socket, the events in the order they were added (a frame is an
 * event or an array of them: contracts/channels.ts ServerFrame); the unit's end flushes at once, so
 * the window only delays events of a unit that runs longer than it, and by at most the window.
 *
 * Order per socket: a drain starts after the previous one ended, so a socket's frames never race
 * each other to the gateway. A frame stays under MAX_FRAME_BYTES (API Gateway takes 128 KB a
 * message): a socket's events that would not fit go in the next frame of the same drain.
 */
import { logger } from '#commons/logger';
import type { ServerEvent } from '#contracts/channels';
import type { ConnectionRecord } from '#storage/ws-connections';

/** How long the first event waiting for a socket may wait for others (REALTIME_COALESCE_MS, commons/env.ts). */
export const COALESCE_WINDOW_MS = 20;
/** Under API Gateway's 128 KB a message, with room for the framing. */
export const MAX_FRAME_BYTES = 96 * 1024;

export interface PublishResult {
  sent: number;
  gone: number;
  failed: number;
  /** Events left in an outbox, posted by its flush (coalescing publishers only). */
  queued?: number;
}

/** One frame for one socket: an event, or several in order. */
export interface Delivery {
  connection: ConnectionRecord;
  payload: ServerEvent | ServerEvent[];
}

export type SendFrames = (deliveries: Delivery[]) => Promise<PublishResult>;

export interface Outbox {
  add(targets: readonly ConnectionRecord[], message: ServerEvent): void;
  /** Posts what is waiting and waits for posts under way; what every flush so far posted. */
  flush(): Promise<PublishResult>;
}

export function createOutbox(send: SendFrames, windowMs = COALESCE_WINDOW_MS): Outbox {
  let waiting = new Map<string, { connection: ConnectionRecord; events: ServerEvent[] }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let draining: Promise<void> = Promise.resolve();
  const total: PublishResult = { sent: 0, gone: 0, failed: 0 };
  // An event object is shared by all its sockets: measured once.
  const sizes = new WeakMap<ServerEvent, number>();
  const sizeOf = (event: ServerEvent) => {
    let size = sizes.get(event);
    if (size === undefined) {
      size = JSON.stringify(event).length + 1;
      sizes.set(event, size);
    }
    return size;
  };

  const framesOf = (connection: ConnectionRecord, events: ServerEvent[]): Delivery[] => {
    const frames: ServerEvent[][] = [[]];
    let bytes = 2;
    for (const event of events) {
      const size = sizeOf(event);
      const current = frames.at(-1) as ServerEvent[];
      if (current.length && bytes + size > MAX_FRAME_BYTES) {
        frames.push([event]);
        bytes = 2 + size;
      } else {
        current.push(event);
        bytes += size;
      }
    }
    return frames.map((frame) => ({ connection, payload: frame.length === 1 ? (frame[0] as ServerEvent) : frame }));
  };

  const drain = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = new Map();
    draining = draining.then(async () => {
      if (!batch.size) return;
      // A socket with frames split for size gets them in order: one send per round of frames.
      const rounds: Delivery[][] = [];
      for (const { connection, events } of batch.values())
        framesOf(connection, events).forEach((delivery, round) => {
          const deliveries = rounds[round] ?? [];
          deliveries.push(delivery);
          rounds[round] = deliveries;
        });
      for (const round of rounds) {
        const result = await send(round).catch((error: unknown) => {
          logger.error('realtime frames not sent', { frames: round.length, error: error as Error });
          return { sent: 0, gone: 0, failed: round.length };
        });
        total.sent += result.sent;
        total.gone += result.gone;
        total.failed += result.failed;
      }
    });
    return draining;
  };

  return {
    add(targets, message) {
      for (const connection of targets) {
        const entry = waiting.get(connection.connectionId);
        if (entry) entry.events.push(message);
        else waiting.set(connection.connectionId, { connection, events: [message] });
      }
      if (waiting.size && !timer) timer = setTimeout(() => void drain(), windowMs);
    },
    async flush() {
      await drain();
      return { ...total };
    },
  };
}
