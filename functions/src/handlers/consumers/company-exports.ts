/**
 * Consumer of the `company-exports` queue (domain/companies/export-build.ts), one job a batch. A job
 * that fails is marked failed and its record reported, so SQS retries it (maxReceiveCount, then the
 * DLQ); a job already done is not built again. A malformed record fails the same way.
 */
import '#adapters/wiring';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { logger } from '#commons/logger';
import { runCompanyExport } from '#domain/companies/export-build';

const jobMessage = z.object({ companyId: z.number().int().positive(), jobId: z.string().uuid() });

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failed: string[] = [];
  for (const record of event.Records) {
    try {
      const job = jobMessage.parse(JSON.parse(record.body));
      await runCompanyExport(job.companyId, job.jobId);
    } catch (error) {
      logger.error('company export failed', { messageId: record.messageId, error: error as Error });
      failed.push(record.messageId);
    }
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
