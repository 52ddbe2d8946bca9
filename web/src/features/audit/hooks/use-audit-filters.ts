import { useMemo, useState } from 'react';
import { companyDayStart } from '../../../lib/company-time.ts';
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
 * The company's day (lib/company-time.ts) from its first to its last millisecond, as ISO times: an
 * admin of a São Paulo company asking for "today" gets São Paulo's today, not UTC's nor the browser's.
 */
const dayStart = (day: string) => (day ? companyDayStart(day).toISOString() : undefined);
const dayEnd = (day: string) => (day ? new Date(companyDayStart(nextDay(day)).getTime() - 1).toISOString() : undefined);
const nextDay = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
};

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
