/**
 * Commands to the session-host (domain/messages/session-commands.ts's port), through the FIFO queue
 * `session-commands`: one message group per connection keeps a connection's commands in order
 * (start before logout), and the command id within its connection is the deduplication id, so a
 * retried send of the same command is delivered once and one tenant's command never stands for another's.
 */
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';
import { encodeQueueBody } from '#contracts/queue-body';
import { sessionCommandDedupeId, sessionCommandGroupId } from '#contracts/session-events';
import type { SessionCommandSender } from '#domain/messages/session-commands';

export const SESSION_COMMANDS_QUEUE = 'session-commands';

export const sendCommandToQueue: SessionCommandSender = async (command) => {
  await sendMessage({
    QueueUrl: env.queueUrl(SESSION_COMMANDS_QUEUE),
    MessageBody: encodeQueueBody(command),
    MessageGroupId: sessionCommandGroupId(command),
    MessageDeduplicationId: sessionCommandDedupeId(command),
  });
};
