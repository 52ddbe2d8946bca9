import { useMemo, useState } from 'react';
import type { AuditFilters } from '../api/audit.ts';

/** What the filter fields hold: days as 'yyyy-MM-dd' (the viewer's days), ids and names as text, '' for any. */
export interface AuditFilterFields {
  from: string;
  to: string;
  userId: string;
  action: string;
  targetType: string;
  /** A super admin's choice of company; '' is the viewer's own. */
  companyId: string;
}

const empty: AuditFilterFields = { from: '', to: '', userId: '', action: '', targetType: '', companyId: '' };

/**
 * The viewer's day from its first to its last millisecond, as ISO times: an admin in São Paulo
 * asking for "today" gets São Paulo's today, not UTC's.
 */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);
const dayEnd = (day: string) => (day ? new Date(`${day}T23:59:59.999`).toISOString() : undefined);

/** The fields and the filters they make for GET /audit and its export. */
export function useAuditFilters() {
  const [fields, setFields] = useState<AuditFilterFields>(empty);
  const filters = useMemo<AuditFilters>(
    () => ({
      from: dayStart(fields.from),
      to: dayEnd(fields.to),
      userId: fields.userId ? Number(fields.userId) : undefined,
      action: (fields.action || undefined) as AuditFilters['action'],
      targetType: (fields.targetType || undefined) as AuditFilters['targetType'],
      companyId: fields.companyId ? Number(fields.companyId) : undefined,
    }),
    [fields],
  );
  const set = (patch: Partial<AuditFilterFields>) => setFields((current) => ({ ...current, ...patch }));
  return { fields, set, filters };
}
