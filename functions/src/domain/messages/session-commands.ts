/**
 * Commands to the session-host that owns a connection's session (start, new QR, logout, sends,
 * reads...). A port: the domain validates and hands the command to the wired sender; the SQS adapter
 * (adapters/session-commands.ts) is wired by every Lambda entry (adapters/wiring.ts), tests wire
 * their recorder. Unwired, a send throws naming the wiring rather than going nowhere.
 */
import { randomUUID } from 'node:crypto';
import { type SessionCommand, sessionCommandSchema } from '#contracts/session-events';

export type SessionCommandSender = (command: SessionCommand) => Promise<void>;

let sender: SessionCommandSender | undefined;

/** Wires the transport (an entry at its start, a test with its recorder); returns the previous one. */
export function setSessionCommandSender(next: SessionCommandSender | undefined): SessionCommandSender | undefined {
  const previous = sender;
  sender = next;
  return previous;
}

/** Validates and sends a command. A malformed command is a bug here, never something the host should see. */
export async function sendSessionCommand(command: SessionCommand): Promise<SessionCommand> {
  const valid = sessionCommandSchema.parse(command);
  if (!sender) throw new Error('No session command sender wired: the entry imports #adapters/wiring (a test sets its own)');
  await sender(valid);
  return valid;
}

/** A lifecycle command (start, new QR, logout) with a fresh command id. */
export function lifecycleCommand(kind: 'start' | 'newQr' | 'logout', companyId: number, connectionId: number): SessionCommand {
  return { kind, companyId, connectionId, commandId: randomUUID() };
}
