/**
 * The audit trail (issue 21 §3): what an entry holds, the acts it names and the filters of
 * `GET /audit` and `GET /audit/export.csv`. Shared by the API and the web's Audit tab.
 */
import * as z from 'zod';

/**
 * Every act an entry may name, `<subject>.<verb>`. A new kind of act is added here first: the
 * web translates each of these names (audit.actions.*), and the query filter accepts only these.
 */
export const auditActions = [
  'auth.login',
  'auth.loginFailed',
  'auth.logout',
  'auth.passwordResetRequested',
  'auth.passwordReset',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.reset',
  'user.create',
  'user.update',
  'user.delete',
  'setting.update',
  'connection.create',
  'connection.update',
  'connection.delete',
  'connection.newQr',
  'connection.disconnect',
  'queue.create',
  'queue.update',
  'queue.delete',
  'integration.create',
  'integration.update',
  'integration.delete',
  'prompt.create',
  'prompt.update',
  'prompt.delete',
  'plan.create',
  'plan.update',
  'plan.delete',
  'company.create',
  'company.update',
  'company.delete',
  'announcement.create',
  'announcement.update',
  'announcement.delete',
  'contact.export',
  'contact.erase',
  'company.export',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotateSecret',
  'webhook.resend',
  'webhook.disable',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditTargetTypes = [
  'session',
  'user',
  'setting',
  'connection',
  'queue',
  'integration',
  'prompt',
  'plan',
  'company',
  'announcement',
  'contact',
  'webhook',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** One field's before and after; a secret's values are masked, never in clear. */
export interface AuditChange {
  from: unknown;
  to: unknown;
}

export interface AuditEntry {
  id: string;
  createdAt: string;
  companyId: number;
  userId: number | null;
  userName: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string | null;
  changes: Record<string, AuditChange>;
  ip: string | null;
  userAgent: string | null;
}

export { MASKED } from './audit-mask.ts';

export const AUDIT_PAGE_SIZE = 40;
/** Deepest page: a page number past it reads more than one request should (see storage/audit). */
export const AUDIT_MAX_PAGE = 250;
/** Rows one export holds at most (newest first); narrow the dates for older ones. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

/** `2026-01-31` or a full ISO time with its offset. */
const instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Invalid date' });

/** A day starts at its first millisecond (UTC); a full time is itself. */
export const rangeStart = (value: string): string => (value.length === 10 ? `${value}T00:00:00.000Z` : new Date(value).toISOString());
/** A day ends at its last millisecond (UTC), so `to=2026-01-31` holds that whole day. */
export const rangeEnd = (value: string): string => (value.length === 10 ? `${value}T23:59:59.999Z` : new Date(value).toISOString());

export const auditQuerySchema = z
  .object({
    from: instant.optional(),
    to: instant.optional(),
    userId: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id').optional(),
    action: z.enum(auditActions, { error: 'Unknown action' }).optional(),
    targetType: z.enum(auditTargetTypes, { error: 'Unknown target type' }).optional(),
    pageNumber: z.coerce
      .number({ error: 'Invalid page' })
      .int('Invalid page')
      .min(1, 'Invalid page')
      .max(AUDIT_MAX_PAGE, 'Invalid page')
      .optional()
      .default(1),
    /** Super admins only: whose entries; everyone else reads their own company's. */
    companyId: z.coerce.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id').optional(),
  })
  .refine((q) => !q.from || !q.to || rangeStart(q.from) <= rangeEnd(q.to), { message: 'from is after to', path: ['to'] });
export type AuditQuery = z.output<typeof auditQuerySchema>;

export interface AuditPage {
  entries: AuditEntry[];
  hasMore: boolean;
}
