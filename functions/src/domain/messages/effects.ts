/**
 * What the inbound pipeline and the senders do outside the table: send a session command, publish
 * a realtime event, read the clock. Passed in (a use case takes its collaborators as arguments), so
 * tests record commands and events and move the clock.
 */

import type { SessionCommand } from '#contracts/session-events';
import { type AudienceFilter, publish } from '#realtime/publisher';
import { sendSessionCommand } from './session-commands.ts';

export interface Effects {
  sendCommand(command: SessionCommand): Promise<unknown>;
  /** Never throws (the realtime publisher's contract). */
  publish(companyId: number, event: string, data: unknown, target: AudienceFilter): Promise<unknown>;
  now(): Date;
}

export const defaultEffects: Effects = {
  sendCommand: sendSessionCommand,
  publish,
  now: () => new Date(),
};
