/**
 * A company's own data, on its admin's request (issue 21 §5): POST /companies/export queues a job
 * and answers its id; the `company-exports` consumer writes one zip to the media bucket; GET
 * /companies/export/{jobId} answers the job's status and, once done, a link to the zip that works
 * for an hour.
 *
 * The zip holds: company.json (the company and when it was exported), settings.json (the company's,
 * without the platform's keys), users.json (each user's profile, queues and dates: no password,
 * token or second-factor secret, whatever the stored record carries, as the fields are picked),
 * contacts.json, tickets.json (each ticket with its tags and notes) and messages/ticket-<id>.json
 * (each ticket's messages, oldest first; media named by their bucket key).
 *
 * Queued (ARCHITECTURE: exports go through a queue with a DLQ): reading a large company takes
 * minutes, more than a request may. The building is export-build.ts, bundled with the consumer only
 * (the zip library stays out of the companies Lambda). The job record is in the company's partition, so another
 * company's job id is a 404. Built in memory: fine for the companies we serve (a million messages
 * is a few hundred MB of JSON, the consumer's memory bound); a bigger one would stream the zip.
 */
import { randomUUID } from 'node:crypto';
import { sendCompanyExport } from '#adapters/company-exports';
import { NotFoundError } from '#commons/errors';
import { recordAudit } from '#domain/audit/record';
import { presignedGet } from '#domain/media/bucket';
import { createExportJob, getExportJob, getLatestExportJob } from '#storage/company-exports/jobs';

/** The zip's link: long enough to download it, short enough that a forwarded link soon dies. */
export const EXPORT_LINK_SECONDS = 3600;

/** A job older than this that never finished (its consumer gave up: the DLQ) no longer blocks a new one. */
const STALE_JOB_MS = 30 * 60_000;

/** Queues an export, or answers the one already under way (clicking twice builds one zip). */
export async function requestCompanyExport(companyId: number, userId: number, now = new Date()): Promise<{ jobId: string }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const latest = await getLatestExportJob(companyId);
    const underWay = latest && (latest.status === 'queued' || latest.status === 'running');
    if (underWay && now.getTime() - Date.parse(latest.createdAt) < STALE_JOB_MS) return { jobId: latest.jobId };
    const jobId = randomUUID();
    const at = now.toISOString();
    if (!(await createExportJob({ jobId, companyId, userId, status: 'queued', createdAt: at, updatedAt: at }, latest?.jobId))) continue;
    await sendCompanyExport({ companyId, jobId });
    await recordAudit({ action: 'company.export', targetType: 'company', targetId: companyId, companyId, now });
    return { jobId };
  }
  throw new Error('company export requests kept racing');
}

export async function companyExportStatus(companyId: number, jobId: string): Promise<{ status: string; url?: string }> {
  const job = await getExportJob(companyId, jobId);
  if (!job) throw new NotFoundError('ERR_NOT_FOUND');
  if (job.status !== 'done' || !job.key) return { status: job.status };
  const url = await presignedGet(
    job.key,
    { contentType: 'application/zip', contentDisposition: `attachment; filename="${job.key.split('/').at(-1)}"` },
    EXPORT_LINK_SECONDS,
  );
  return { status: job.status, url };
}
