/**
 * Reading the audit trail (issue 21 §3): an admin reads their company's entries, a super admin any
 * company's; nobody edits or deletes one (there is no such use case).
 */
import { ForbiddenError } from '#commons/errors';
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  rangeEnd,
  rangeStart,
} from '#contracts/audit';
import { zonedIso } from '#contracts/zoned-time';
import type { Identity } from '#domain/identity';
import { companyZone } from '#domain/settings/company-zone';
import { type AuditFilter, listAuditEntries } from '#storage/audit/entries';

/** Whose entries the caller may read: their own company's, or (super admins) the one asked for. */
function filterFor(caller: Identity, query: AuditQuery): AuditFilter {
  if (query.companyId !== undefined && query.companyId !== caller.companyId && !caller.super) {
    throw new ForbiddenError('ERR_NO_PERMISSION');
  }
  return {
    companyId: query.companyId ?? caller.companyId,
    from: query.from ? rangeStart(query.from) : undefined,
    to: query.to ? rangeEnd(query.to) : undefined,
    userId: query.userId,
    action: query.action,
    targetType: query.targetType,
  };
}

/** One page, newest first; `hasMore` from reading one entry past it. */
export async function listAuditPage(caller: Identity, query: AuditQuery): Promise<AuditPage> {
  const skip = (query.pageNumber - 1) * AUDIT_PAGE_SIZE;
  const read = await listAuditEntries(filterFor(caller, query), skip + AUDIT_PAGE_SIZE + 1);
  return { entries: read.slice(skip, skip + AUDIT_PAGE_SIZE), hasMore: read.length > skip + AUDIT_PAGE_SIZE };
}

const CSV_COLUMNS = [
  'createdAt',
  'companyId',
  'userId',
  'userName',
  'action',
  'targetType',
  'targetId',
  'changes',
  'ip',
  'userAgent',
] as const;

/**
 * A cell as spreadsheets read it safely: quoted when it holds the separator, a quote or a line
 * break, and a leading = + - @ (a formula, in text a user typed: a name, a user agent) defused
 * with a quote mark.
 */
function csvCell(value: unknown): string {
  let text = value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * What one answer may carry: a Lambda's response stops at 6 MB, so the CSV stops a row short of
 * 5 MB, keeping the newest rows, and says it did.
 */
export const AUDIT_EXPORT_MAX_BYTES = 5_000_000;

/**
 * `zone`: the company's time zone (issue 25 "One time zone"): createdAt is written on its clock with
 * the offset (2026-12-01T14:00:00-03:00), the same instant in any spreadsheet; without it, UTC as stored.
 */
export function auditCsv(entries: AuditEntry[], maxBytes = AUDIT_EXPORT_MAX_BYTES, zone?: string): { csv: string; truncated: boolean } {
  const lines = [CSV_COLUMNS.join(';')];
  let bytes = Buffer.byteLength(lines[0] as string) + 2;
  for (const entry of entries) {
    const line = CSV_COLUMNS.map((column) =>
      csvCell(column === 'createdAt' && zone ? zonedIso(entry.createdAt, zone) : entry[column]),
    ).join(';');
    bytes += Buffer.byteLength(line) + 2;
    if (bytes > maxBytes) return { csv: `${lines.join('\r\n')}\r\n`, truncated: true };
    lines.push(line);
  }
  return { csv: `${lines.join('\r\n')}\r\n`, truncated: false };
}

/**
 * Every entry matching the filters as CSV, newest first, separated by `;` as the contacts' export:
 * up to AUDIT_EXPORT_MAX_ROWS rows and AUDIT_EXPORT_MAX_BYTES; `truncated` when older rows were left
 * out (narrow the dates to reach them).
 */
export async function exportAuditCsv(caller: Identity, query: AuditQuery): Promise<{ csv: string; truncated: boolean }> {
  const entries = await listAuditEntries(filterFor(caller, query), AUDIT_EXPORT_MAX_ROWS + 1);
  const out = auditCsv(entries.slice(0, AUDIT_EXPORT_MAX_ROWS), AUDIT_EXPORT_MAX_BYTES, await companyZone(caller.companyId));
  return { csv: out.csv, truncated: out.truncated || entries.length > AUDIT_EXPORT_MAX_ROWS };
}
