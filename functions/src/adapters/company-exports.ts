/**
 * The `company-exports` queue: one message per requested company export (domain/companies/data-export.ts),
 * built by its consumer, which may take minutes (a request answers in seconds).
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { env } from '#commons/env';
import { sqsClient } from '#commons/sqs';

export const COMPANY_EXPORTS_QUEUE = 'company-exports';

export async function sendCompanyExport(job: { companyId: number; jobId: string }): Promise<void> {
  await sqsClient().send(new SendMessageCommand({ QueueUrl: env.queueUrl(COMPANY_EXPORTS_QUEUE), MessageBody: JSON.stringify(job) }));
}
