/**
 * A company's data export jobs (issue 21 §5, POST /companies/export).
 *
 *   job   pk = C#<cid>   sk = EXPORT#<jobId>   { jobId, status, userId, createdAt, updatedAt, key?, error?, expiresAt }
 *         -> the status GET reads it by id, one GetItem; kept in the tenant partition, so another
 *            company's job id is simply not found. `expiresAt` (the table's TTL) drops the record a
 *            week later; the zip itself is removed by the bucket's lifecycle or the next export.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, table, transactionCancellationCodes } from '../db.ts';
import { tenantPk } from '../table.ts';

export type CompanyExportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface CompanyExportJob {
  jobId: string;
  companyId: number;
  status: CompanyExportStatus;
  userId: number;
  /** The zip's key in the media bucket, once written. */
  key?: string;
  error?: string;
  createdAt: string;
  updatedAt: string;
}

const JOB_DAYS = 7;
const jobKey = (companyId: number, jobId: string) => ({ pk: tenantPk(companyId), sk: `EXPORT#${jobId}` });
const latestKey = (companyId: number) => ({ pk: tenantPk(companyId), sk: 'EXPORT#LATEST' });

/**
 * Creates the job and makes it the company's latest, on condition that the latest is still the one
 * the caller read (`latestSeen`, undefined = none): of two requests at once, one creates its job and
 * the other gets false (and answers the winner's job).
 *
 *   latest   pk = C#<cid>   sk = EXPORT#LATEST   { jobId }   -> a second request while a job is
 *            under way answers that job instead of building the same zip twice
 */
export async function createExportJob(job: CompanyExportJob, latestSeen: string | undefined): Promise<boolean> {
  const expiresAt = Math.floor(Date.parse(job.createdAt) / 1000) + JOB_DAYS * 86_400;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...jobKey(job.companyId, job.jobId), entity: 'companyExport', ...job, expiresAt },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...latestKey(job.companyId), entity: 'companyExportLatest', jobId: job.jobId },
              ...(latestSeen
                ? { ConditionExpression: 'jobId = :seen', ExpressionAttributeValues: { ':seen': latestSeen } }
                : { ConditionExpression: 'attribute_not_exists(pk)' }),
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (transactionCancellationCodes(error)?.includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** The company's latest export job, if any. */
export async function getLatestExportJob(companyId: number): Promise<CompanyExportJob | undefined> {
  const latest = await getItem<{ jobId: string }>(latestKey(companyId).pk, latestKey(companyId).sk);
  return latest ? getExportJob(companyId, latest.jobId) : undefined;
}

export const getExportJob = (companyId: number, jobId: string): Promise<CompanyExportJob | undefined> =>
  getItem<CompanyExportJob>(jobKey(companyId, jobId).pk, jobKey(companyId, jobId).sk);

export async function setExportJobStatus(
  companyId: number,
  jobId: string,
  status: CompanyExportStatus,
  extra: { key?: string; error?: string } = {},
): Promise<void> {
  const fields: Record<string, unknown> = { status, updatedAt: new Date().toISOString(), ...extra };
  const names = Object.keys(fields);
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: jobKey(companyId, jobId),
      UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
    }),
  );
}
