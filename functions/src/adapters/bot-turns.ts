/**
 * The `bot-turns` FIFO queue: one message per inbound message a prompt or integration must answer
 * (domain/bots). One group per ticket keeps a conversation's turns in order (the contact's second
 * message waits for the answer to the first); the dedupe id is the inbound message, so a replayed
 * inbound event queues its turn once.
 */
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';
import { dedupeIdForSqs } from '#contracts/session-events';
import type { BotTurnMessage } from '#domain/bots/turn-message';

export const BOT_TURNS_QUEUE = 'bot-turns';

export async function sendBotTurn(turn: BotTurnMessage): Promise<void> {
  await sendMessage({
    QueueUrl: env.queueUrl(BOT_TURNS_QUEUE),
    MessageBody: JSON.stringify(turn),
    MessageGroupId: `${turn.companyId}:${turn.ticketId}`,
    MessageDeduplicationId: dedupeIdForSqs(`${turn.companyId}:${turn.ticketId}:${turn.messageId}`),
  });
}
