/**
 * Consumer of the `campaign-ticks` queue: the campaign engine's clock (domain/campaigns/engine.ts).
 * Each record is a connection's tick or a scheduled start; each is idempotent (the tick's seq, the
 * start's status), so a redelivery does nothing twice. A record that throws is reported alone
 * (reportBatchItemFailures) and comes back after the visibility timeout; after maxReceiveCount it
 * lands in the DLQ. A malformed record goes to the DLQ the same way.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import '#adapters/wiring';
import { logger } from '#commons/logger';
import { campaignClockSchema } from '#domain/campaigns/clock';
import { runScheduledStart, runTick } from '#domain/campaigns/engine';

async function handle(record: SQSRecord): Promise<void> {
  const message = campaignClockSchema.parse(JSON.parse(record.body));
  if (message.kind === 'start') {
    await runScheduledStart(message);
    return;
  }
  const redelivered = Number(record.attributes?.ApproximateReceiveCount ?? 1) > 1;
  await runTick(message, redelivered);
}

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures = await Promise.all(
    event.Records.map(async (record) => {
      try {
        await handle(record);
        return undefined;
      } catch (error) {
        logger.error('campaign clock message failed', { messageId: record.messageId, error: error as Error });
        return record.messageId;
      }
    }),
  );
  return { batchItemFailures: failures.filter((id) => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
