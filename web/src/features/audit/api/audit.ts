import type { AuditPage, AuditQuery } from '@conversa/functions/contracts/audit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The Audit tab's filters as the API takes them (ISO bounds, ids); empty ones are left out. */
export type AuditFilters = Partial<Pick<AuditQuery, 'from' | 'to' | 'userId' | 'action' | 'targetType' | 'companyId'>>;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, 'list', filters] as const,
};

/** GET /audit: a page of the company's trail, newest first. */
export const fetchAuditPage = (filters: AuditFilters, pageNumber: number) =>
  api<AuditPage>('/audit', { query: { ...filters, pageNumber } });

export const useAuditEntries = (filters: AuditFilters) =>
  useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: auditKeys.list(filters),
      queryFn: ({ pageParam }) => fetchAuditPage(filters, pageParam),
      initialPageParam: 1,
      getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
    }),
  );

/** GET /audit/export.csv: the same filters, every matching entry as CSV text. */
export const fetchAuditCsv = (filters: AuditFilters) => api<string>('/audit/export.csv', { query: { ...filters } });
