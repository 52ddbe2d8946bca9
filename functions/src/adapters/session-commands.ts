/**
 * Commands to the session-host that owns a connection's session, through the FIFO queue
 * `session-commands`: one message group per connection keeps a connection's commands in order
 * (start before logout), and the command id within its connection is the deduplication id, so a
 * retried send of the same command is delivered once and one tenant's command never stands for another's.
 */
import { randomUUID } from 'node:crypto';
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';
import { encodeQueueBody } from '#contracts/queue-body';
import { type SessionCommand, sessionCommandDedupeId, sessionCommandGroupId, sessionCommandSchema } from '#contracts/session-events';

export const SESSION_COMMANDS_QUEUE = 'session-commands';

export type SessionCommandSender = (command: SessionCommand) => Promise<void>;

async function sendToQueue(command: SessionCommand): Promise<void> {
  await sendMessage({
    QueueUrl: env.queueUrl(SESSION_COMMANDS_QUEUE),
    MessageBody: encodeQueueBody(command),
    MessageGroupId: sessionCommandGroupId(command),
    MessageDeduplicationId: sessionCommandDedupeId(command),
  });
}

let sender: SessionCommandSender = sendToQueue;

/** Tests swap the transport; returns the previous one. */
export function setSessionCommandSender(next: SessionCommandSender | undefined): SessionCommandSender {
  const previous = sender;
  sender = next ?? sendToQueue;
  return previous;
}

/** Validates and sends a command. A malformed command is a bug here, never something the host should see. */
export async function sendSessionCommand(command: SessionCommand): Promise<SessionCommand> {
  const valid = sessionCommandSchema.parse(command);
  await sender(valid);
  return valid;
}

/** A lifecycle command (start, new QR, logout) with a fresh command id. */
export function lifecycleCommand(kind: 'start' | 'newQr' | 'logout', companyId: number, connectionId: number): SessionCommand {
  return { kind, companyId, connectionId, commandId: randomUUID() };
}
