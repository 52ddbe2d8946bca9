import type { DashboardData, TicketsDayData, TicketsUsersData } from '@conversa/functions/contracts/dashboard';
import { PRESENCE_REFRESH_MS } from '@conversa/functions/contracts/presence';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type { DashboardData, TicketsDayData, TicketsUsersData };

/**
 * What the Filter button applied: the last N days, or a date range (company time zone, YYYY-MM-DD);
 * `default` asks the server for SPEC 2's default (first of the month to today in the company's time
 * zone, which the browser's clock may not share).
 */
export type DashboardFilter = { type: 'default' } | { type: 'period'; days: number } | { type: 'dates'; from: string; to: string };

/** Every dashboard query lives under `all`: a ticket event refreshes them together. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summaries: () => [...dashboardKeys.all, 'summary'] as const,
  summary: (filter: DashboardFilter) => [...dashboardKeys.summaries(), filter] as const,
  ticketsUsers: (from: string, to: string) => [...dashboardKeys.all, 'ticketsUsers', from, to] as const,
  ticketsDay: (from: string, to: string) => [...dashboardKeys.all, 'ticketsDay', from, to] as const,
};

const summaryQuery = (filter: DashboardFilter) =>
  filter.type === 'default' ? {} : filter.type === 'period' ? { days: filter.days } : { date_from: filter.from, date_to: filter.to };

export const fetchDashboard = (filter: DashboardFilter) => api<DashboardData>('/dashboard', { query: summaryQuery(filter) });
/**
 * Read again every PRESENCE_REFRESH_MS while shown: the attendants' presence changes without an event
 * when a socket vanishes silently (the server reads it from the sockets, domain/users/presence.ts).
 */
export const dashboardQueryOptions = (filter: DashboardFilter) =>
  queryOptions({
    queryKey: dashboardKeys.summary(filter),
    queryFn: () => fetchDashboard(filter),
    retry: false,
    refetchInterval: PRESENCE_REFRESH_MS,
  });
export const useDashboard = (filter: DashboardFilter) => useQuery(dashboardQueryOptions(filter));

export const fetchTicketsUsers = (from: string, to: string) =>
  api<TicketsUsersData>('/dashboard/ticketsUsers', { query: { initialDate: from, finalDate: to } });
export const useTicketsUsers = (period: { from: string; to: string } | undefined) =>
  useQuery({
    queryKey: dashboardKeys.ticketsUsers(period?.from ?? '', period?.to ?? ''),
    queryFn: () => fetchTicketsUsers(period?.from ?? '', period?.to ?? ''),
    enabled: Boolean(period),
    retry: false,
  });

export const fetchTicketsDay = (from: string, to: string) =>
  api<TicketsDayData>('/dashboard/ticketsDay', { query: { initialDate: from, finalDate: to } });
export const useTicketsDay = (period: { from: string; to: string } | undefined) =>
  useQuery({
    queryKey: dashboardKeys.ticketsDay(period?.from ?? '', period?.to ?? ''),
    queryFn: () => fetchTicketsDay(period?.from ?? '', period?.to ?? ''),
    enabled: Boolean(period),
    retry: false,
  });
