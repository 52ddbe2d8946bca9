/** Dashboard requests and answers (SPEC 2 "Dashboard", 3 "Dashboard counters", 7, 9; BEHAVIOUR "Dashboard"). */
import * as z from 'zod';
import type { Presence } from './presence.ts';

/** SPEC 9: the period select's options (days). */
export const dashboardPeriods = [3, 7, 15, 30, 60, 90] as const;
/** The longest date range one request reads: reads are bounded by the days asked for, so the days are bounded. */
export const DASHBOARD_MAX_DAYS = 366;

const validDay = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};
/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30). */
export const isoDaySchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD')
  .refine(validDay, 'Invalid date');

/** GET /dashboard: `days` (the last N days, today included) or `date_from`..`date_to` (company time zone). */
export const dashboardQuerySchema = z
  .object({
    days: z.coerce.number().int().min(1).max(90).optional(),
    date_from: isoDaySchema.optional(),
    date_to: isoDaySchema.optional(),
  })
  .strip();
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

/** GET /dashboard/ticketsUsers and /ticketsDay: the spec's initialDate/finalDate; companyId is accepted and ignored (the tenant is the token's). */
export const dashboardChartQuerySchema = z
  .object({
    initialDate: isoDaySchema.optional(),
    finalDate: isoDaySchema.optional(),
    companyId: z.coerce.number().int().positive().optional(),
  })
  .strip();
export type DashboardChartQuery = z.output<typeof dashboardChartQuerySchema>;

export interface DashboardCounters {
  /** Conversations begun in the period that are open now (in conversation). */
  supportHappening: number;
  /** ... pending now (waiting). */
  supportPending: number;
  /** ... closed now (finished). */
  supportFinished: number;
  /** New contacts in the period. */
  leads: number;
  /** Minutes from an attendant taking a conversation to its end (or rating), over those ended in the period. */
  avgSupportTime: number;
  /** Minutes from entering the waiting list to an attendant taking it, over those taken in the period. */
  avgWaitTime: number;
}

export interface DashboardAttendant {
  id: number;
  name: string;
  /** Conversations the attendant ended in the period. */
  tickets: number;
  /** Average rating (1-3) of the period's ratings, null without any. */
  rating: number | null;
  ratings: number;
  avgSupportTime: number;
  /** Has a live socket (presence is not offline). */
  online: boolean;
  /** online / away / offline, read from the attendant's sockets (domain/users/presence.ts). */
  presence: Presence;
}

export interface DashboardData {
  period: { from: string; to: string; timeZone: string };
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
}

export interface TicketsUsersData {
  data: { nome: string; quantidade: number }[];
}

export type TicketsDayPoint = { horario: string; total: number } | { data: string; total: number };
export interface TicketsDayData {
  data: TicketsDayPoint[];
  count: number;
}
