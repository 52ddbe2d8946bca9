import type { ReportSummary } from '@conversa/functions/contracts/reports';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type { ReportSummary };

/** What Apply sent: the days (company time zone, YYYY-MM-DD; empty = the server's default) and the filters. */
export interface ReportFilter {
  from: string;
  to: string;
  queueIds: number[];
  userIds: number[];
}

export const reportKeys = {
  all: ['reports'] as const,
  summary: (filter: ReportFilter) => [...reportKeys.all, 'summary', filter] as const,
};

/** The query string both routes take: empty values are left out (the server's defaults). */
export function reportQuery(filter: ReportFilter): Record<string, string> {
  const query: Record<string, string> = {};
  if (filter.from) query.from = filter.from;
  if (filter.to) query.to = filter.to;
  if (filter.queueIds.length) query.queueIds = filter.queueIds.join(',');
  if (filter.userIds.length) query.userIds = filter.userIds.join(',');
  return query;
}

/** GET /reports/summary. */
export const fetchReportSummary = (filter: ReportFilter) => api<ReportSummary>('/reports/summary', { query: reportQuery(filter) });
export const reportSummaryQueryOptions = (filter: ReportFilter) =>
  queryOptions({
    queryKey: reportKeys.summary(filter),
    queryFn: () => fetchReportSummary(filter),
    retry: false,
    placeholderData: keepPreviousData,
  });
export const useReportSummary = (filter: ReportFilter) => useQuery(reportSummaryQueryOptions(filter));

/** GET /reports/export.csv: the same rows as CSV text. */
export const fetchReportCsv = (filter: ReportFilter) => api<string>('/reports/export.csv', { query: reportQuery(filter) });
