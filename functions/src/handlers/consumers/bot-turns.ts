/**
 * Consumer of the `bot-turns` FIFO queue (domain/bots/turn.ts). A batch may hold several tickets'
 * groups: groups run side by side, each group's records in order; when a record fails, it and the
 * later records of its group are reported (reportBatchItemFailures), so a conversation's turns are
 * retried in order. A provider's failure is not a failed record (the turn hands the ticket back);
 * a record fails only when our own side did (the table, the queue), and after maxReceiveCount it
 * lands in the DLQ. A malformed record fails the same way.
 */
import '#adapters/wiring';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '#commons/logger';
import { runBotTurn } from '#domain/bots/turn';
import { botTurnMessageSchema } from '#domain/bots/turn-message';
import { byMessageGroup } from './message-groups.ts';

async function runGroup(records: SQSRecord[]): Promise<string[]> {
  for (const [i, record] of records.entries()) {
    try {
      await runBotTurn(botTurnMessageSchema.parse(JSON.parse(record.body)));
    } catch (error) {
      logger.error('bot turn record failed', { messageId: record.messageId, error: error as Error });
      return records.slice(i).map((later) => later.messageId);
    }
  }
  return [];
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failed = (await Promise.all(byMessageGroup(event.Records, (record) => record).map(runGroup))).flat();
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
