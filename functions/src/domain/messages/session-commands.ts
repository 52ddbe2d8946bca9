/**
 * Commands to the session-host that owns a connection's session (start, new QR, logout, sends,
 * reads...). A port: the domain validates and hands the command to the wired sender; the SQS adapter
 * (adapters/session-commands.ts) is wired by every Lambda entry (adapters/wiring.ts), tests wire
 * their recorder. Unwired, a send throws naming the wiring rather than going nowhere.
 */

import { randomUUID } from 'node:crypto';
import { type SessionCommand, sessionCommandSchema } from '#contracts/session-events';
import { port } from '#domain/port';

export type SessionCommandSender = (command: SessionCommand) => Promise<void>;

const sender = port<SessionCommandSender>('session command sender');

/** Wires the transport (adapters/wiring.ts, a test with its recorder); returns the previous one. */
export const setSessionCommandSender = sender.set;

/** Validates and sends a command. A malformed command is a bug here, never something the host should see. */
export async function sendSessionCommand(command: SessionCommand): Promise<SessionCommand> {
  const valid = sessionCommandSchema.parse(command);
  await sender.wired()(valid);
  return valid;
}

/** A lifecycle command (start, new QR, logout) with a fresh command id. */
export function lifecycleCommand(kind: 'start' | 'newQr' | 'logout', companyId: number, connectionId: number): SessionCommand {
  return { kind, companyId, connectionId, commandId: randomUUID() };
}
