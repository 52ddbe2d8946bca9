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
import type { Identity } from '#domain/identity';
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

export const auditCsv = (entries: AuditEntry[]): string =>
  `${[CSV_COLUMNS.join(';'), ...entries.map((entry) => CSV_COLUMNS.map((column) => csvCell(entry[column])).join(';'))].join('\r\n')}\r\n`;

/** Every entry matching the filters (up to AUDIT_EXPORT_MAX_ROWS, newest first) as CSV, separated by `;` as the contacts' export. */
export async function exportAuditCsv(caller: Identity, query: AuditQuery): Promise<string> {
  return auditCsv(await listAuditEntries(filterFor(caller, query), AUDIT_EXPORT_MAX_ROWS));
}
