/**
 * The dashboard (SPEC 2 "Dashboard", BEHAVIOUR "Dashboard") from the per-day counters kept as
 * tickets change (storage/dashboard-counters.ts): one Query of the period's dashboard items (D, the
 * sums; the hours and histograms only for the one-day chart) plus the company's users (bounded by
 * the plan), whatever the number of tickets.
 *
 * Scope: admins (and super users) see the company; anyone else the queues they belong to (their
 * tickets without a queue are the company's, not theirs). New contacts belong to no queue: everyone
 * sees the company's.
 */
import { ValidationError } from '#commons/errors';
import {
  DASHBOARD_MAX_DAYS,
  type DashboardAttendant,
  type DashboardChartQuery,
  type DashboardData,
  type DashboardQuery,
  type TicketsDayData,
  type TicketsUsersData,
} from '#contracts/dashboard';
import type { Identity } from '#domain/identity';
import { readPresence } from '#domain/users/presence';
import { type CounterItem, type CounterParts, companyTimeZone, localDayHour, readCounters } from '#storage/dashboard-counters';
import { listUsers } from '#storage/users/users';

/** Who asks: the Identity plus their queues. */
export interface DashboardViewer extends Identity {
  user: { queueIds: number[] };
}

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const minutes = (ms: number, n: number) => (n ? Math.round(ms / n / 600) / 100 : 0);

interface Period {
  from: string;
  to: string;
  timeZone: string;
}

/**
 * The days asked for, in the company's time zone: `days` = the last N days with today; else the
 * dates given (a missing end is today, a missing start the first of the end's month); else the
 * first of this month to today (SPEC 2's default).
 */
export async function resolvePeriod(
  companyId: number,
  input: { days?: number; from?: string; to?: string; fromField: string; toField: string },
  now: Date,
): Promise<Period> {
  const timeZone = await companyTimeZone(companyId);
  const today = localDayHour(now.toISOString(), timeZone).day;
  if (input.days !== undefined) return { from: addDays(today, 1 - input.days), to: today, timeZone };
  const to = input.to ?? today;
  const from = input.from ?? `${to.slice(0, 8)}01`;
  if (from > to) throw new ValidationError(input.fromField, 'The start date is after the end date');
  if (daysBetween(from, to) > DASHBOARD_MAX_DAYS) throw new ValidationError(input.toField, `At most ${DASHBOARD_MAX_DAYS} days`);
  return { from, to, timeZone };
}

const isAdmin = (viewer: DashboardViewer) => viewer.profile === 'admin' || viewer.super;

/** The counter items of the period that the viewer may see (their queues' unless admin), and the company's new contacts. */
async function scopedCounters(
  viewer: DashboardViewer,
  period: Period,
  parts: CounterParts = 'dashboard',
): Promise<{ items: CounterItem[]; leads: number; requests: number }> {
  const { items, requests } = await readCounters(viewer.companyId, period.from, period.to, parts);
  const leads = items.reduce((sum, item) => sum + (item.values.contacts ?? 0), 0);
  if (isAdmin(viewer)) return { items, leads, requests };
  const queues = new Set(viewer.user.queueIds);
  return { items: items.filter((item) => queues.has(item.queueId)), leads, requests };
}

function sum(items: CounterItem[], attr: string): number {
  let total = 0;
  for (const item of items) total += item.values[attr] ?? 0;
  return total;
}

/** Per attendant id: the u<id><metric> attributes summed. */
function perAttendant(items: CounterItem[]): Map<number, Record<string, number>> {
  const out = new Map<number, Record<string, number>>();
  for (const item of items) {
    for (const [attr, value] of Object.entries(item.values)) {
      const match = /^u(\d+)([tsnrc])$/.exec(attr);
      if (!match) continue;
      const id = Number(match[1]);
      const stats = out.get(id) ?? {};
      stats[match[2] as string] = (stats[match[2] as string] ?? 0) + value;
      out.set(id, stats);
    }
  }
  return out;
}

async function attendants(viewer: DashboardViewer, items: CounterItem[]): Promise<DashboardAttendant[]> {
  const stats = perAttendant(items);
  const mine = new Set(viewer.user.queueIds);
  const users = (await listUsers(viewer.companyId)).filter(
    // A user sees the attendants of their queues and whoever worked in them in the period.
    (user) => isAdmin(viewer) || stats.has(user.id) || user.queueIds.some((id) => mine.has(id)),
  );
  // Presence from the attendants' sockets (one Query of the tenant's sockets past 8 users), not the user's flag.
  const presence = await readPresence(
    viewer.companyId,
    users.map((user) => user.id),
  );
  return users
    .map((user) => {
      const s = stats.get(user.id) ?? {};
      const now = presence.get(user.id) ?? 'offline';
      const ratings = s.c ?? 0;
      return {
        id: user.id,
        name: user.name,
        tickets: s.t ?? 0,
        rating: ratings ? Math.round(((s.r ?? 0) / ratings) * 100) / 100 : null,
        ratings,
        avgSupportTime: minutes(s.s ?? 0, s.n ?? 0),
        online: now !== 'offline',
        presence: now,
      };
    })
    .sort((a, b) => b.tickets - a.tickets || a.name.localeCompare(b.name));
}

export async function getDashboard(
  viewer: DashboardViewer,
  query: DashboardQuery,
  now = new Date(),
): Promise<DashboardData & { requests: number }> {
  const period = await resolvePeriod(
    viewer.companyId,
    { days: query.days, from: query.date_from, to: query.date_to, fromField: 'date_from', toField: 'date_to' },
    now,
  );
  const { items, leads, requests } = await scopedCounters(viewer, period);
  return {
    period,
    counters: {
      supportHappening: sum(items, 'open'),
      supportPending: sum(items, 'pending'),
      supportFinished: sum(items, 'closed'),
      leads,
      avgSupportTime: minutes(sum(items, 'supportMs'), sum(items, 'supportN')),
      avgWaitTime: minutes(sum(items, 'waitMs'), sum(items, 'waitN')),
    },
    attendants: await attendants(viewer, items),
    requests,
  };
}

const chartPeriod = (viewer: DashboardViewer, query: DashboardChartQuery, now: Date) =>
  resolvePeriod(viewer.companyId, { from: query.initialDate, to: query.finalDate, fromField: 'initialDate', toField: 'finalDate' }, now);

/** GET /dashboard/ticketsUsers: conversations ended per attendant (the first chart). */
export async function getTicketsUsers(viewer: DashboardViewer, query: DashboardChartQuery, now = new Date()): Promise<TicketsUsersData> {
  const { items } = await scopedCounters(viewer, await chartPeriod(viewer, query, now));
  const list = await attendants(viewer, items);
  return { data: list.filter((a) => a.tickets > 0).map((a) => ({ nome: a.name, quantidade: a.tickets })) };
}

/** GET /dashboard/ticketsDay: conversations begun per hour (one day) or per day (the second chart). */
export async function getTicketsDay(viewer: DashboardViewer, query: DashboardChartQuery, now = new Date()): Promise<TicketsDayData> {
  const period = await chartPeriod(viewer, query, now);
  // One day is drawn by the hour: the hours live in the report items (and in the D items written before the split).
  const { items } = await scopedCounters(viewer, period, period.from === period.to ? 'all' : 'dashboard');
  const begun = (list: CounterItem[]) => sum(list, 'open') + sum(list, 'pending') + sum(list, 'closed');
  if (period.from === period.to) {
    const data = Array.from({ length: 24 }, (_, h) => {
      const hour = String(h).padStart(2, '0');
      return { horario: hour, total: sum(items, `h${hour}`) };
    });
    return { data, count: data.reduce((n, point) => n + point.total, 0) };
  }
  const data = Array.from({ length: daysBetween(period.from, period.to) }, (_, i) => {
    const day = addDays(period.from, i);
    return { data: day, total: begun(items.filter((item) => item.day === day)) };
  });
  return { data, count: data.reduce((n, point) => n + point.total, 0) };
}
