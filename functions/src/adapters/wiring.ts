/**
 * The domain's ports given their AWS adapters (STYLE: the domain declares the port, the adapter
 * implements it, the entry wires the two). Imported by every Lambda entry whose code reaches a port,
 * and by no other (functions/test/layer-boundaries.test.ts holds both), so no path into the domain
 * runs unwired and no Lambda bundles an adapter it cannot use. A port nobody wired throws naming this file; a test's own recorder is kept (provide).
 * Wiring is only the functions: nothing here reads the environment or opens a client until used.
 */
import { setBotTurnSender } from '#domain/bots/queue';
import { setClockSender } from '#domain/campaigns/clock';
import { setMediaBucket } from '#domain/media/bucket';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import { sendBotTurn } from './bot-turns.ts';
import { sendClockToQueue } from './campaign-ticks.ts';
import { s3MediaBucket } from './media-bucket.ts';
import { sendCommandToQueue } from './session-commands.ts';

/**
 * Wires `adapter` unless the port already has one: in a Lambda nothing has, and in a test the
 * recorder it set before its first handler loaded (and this module with it) stays in place.
 */
function provide<T>(set: (next: T | undefined) => T | undefined, adapter: T): void {
  const before = set(adapter);
  if (before !== undefined) set(before);
}

provide(setSessionCommandSender, sendCommandToQueue);
provide(setClockSender, sendClockToQueue);
provide(setBotTurnSender, sendBotTurn);
provide(setMediaBucket, s3MediaBucket);
