/**
 * The `company-exports` queue: one message per requested company export (domain/companies/data-export.ts),
 * built by its consumer, which may take minutes (a request answers in seconds).
 */
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';

export const COMPANY_EXPORTS_QUEUE = 'company-exports';

export async function sendCompanyExport(job: { companyId: number; jobId: string }): Promise<void> {
  await sendMessage({ QueueUrl: env.queueUrl(COMPANY_EXPORTS_QUEUE), MessageBody: JSON.stringify(job) });
}
