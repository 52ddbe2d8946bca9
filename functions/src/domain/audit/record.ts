/**
 * Writing the audit trail (issue 21 §3, ARCHITECTURE "audit entries are written with the act they
 * record"). Two ways, for the two shapes of act:
 *   - `auditTransactItem`: the act is one DynamoDB transaction: add this item to it, and the entry
 *     exists exactly when the act does.
 *   - `recordAudit`: the act is not (Cognito and DynamoDB, several writes): call it right after the
 *     act succeeded. It never throws: the act has happened and must not be reported as failed, so a
 *     failed entry write is logged (with the whole entry, so it can be put back) instead of lost
 *     silently.
 * Who acted and from where come from the request's scope (request-scope.ts) unless given.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '#commons/logger';
import type { AuditAction, AuditChange, AuditEntry, AuditTargetType } from '#contracts/audit';
import { auditEntryPut, putAuditEntry } from '#storage/audit/entries';
import type { TransactItem } from '#storage/db';
import { currentAuditScope } from './request-scope.ts';

export type { AuditAction, AuditTargetType } from '#contracts/audit';
export { changesOf, maskSecrets } from './changes.ts';

export interface AuditInput {
  action: AuditAction;
  targetType: AuditTargetType;
  targetId?: string | number | null;
  changes?: Record<string, AuditChange>;
  /** Whose trail; defaults to the acting user's company. */
  companyId?: number;
  /** Who acted, when not the signed-in caller (a failed sign-in names the account it tried). */
  userId?: number | null;
  userName?: string | null;
  now?: Date;
}

/** The entry as it will be stored, or undefined when no company is known to hold it. */
export function auditEntryOf(input: AuditInput): AuditEntry | undefined {
  const scope = currentAuditScope();
  const companyId = input.companyId ?? scope?.actor?.companyId;
  if (companyId === undefined) return undefined;
  const actorIsCaller = input.userId === undefined;
  return {
    id: randomUUID(),
    createdAt: (input.now ?? new Date()).toISOString(),
    companyId,
    userId: actorIsCaller ? (scope?.actor?.userId ?? null) : (input.userId ?? null),
    userName: actorIsCaller ? (scope?.actor?.userName ?? null) : (input.userName ?? null),
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId == null ? null : String(input.targetId),
    changes: input.changes ?? {},
    ip: scope?.ip ?? null,
    userAgent: scope?.userAgent ?? null,
  };
}

/** The entry as one more item of the act's own transaction. */
export function auditTransactItem(input: AuditInput): TransactItem | undefined {
  const entry = auditEntryOf(input);
  if (!entry) logger.error('audit entry without a company: not recorded', { input });
  return entry ? auditEntryPut(entry) : undefined;
}

/** Records an act that already happened; never throws (see the header). */
export async function recordAudit(input: AuditInput): Promise<void> {
  const entry = auditEntryOf(input);
  if (!entry) {
    logger.error('audit entry without a company: not recorded', { input });
    return;
  }
  try {
    await putAuditEntry(entry);
  } catch (error) {
    logger.error('audit entry write failed after its act succeeded', { entry, error });
  }
}
