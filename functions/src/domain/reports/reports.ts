/**
 * Reports (issue 22 §4) from the dashboard's per-day counters (storage/dashboard-counters.ts, whose
 * header defines each measure): one Query of the period's counter items, the company's users and
 * queues, whatever the number of tickets.
 *
 * Scope, as the dashboard: admins (and super users) see the company; anyone else the queues they
 * belong to. `queueIds` narrows that further; a plain user naming a queue that is not theirs is not
 * refused, it is left out (they get their queues among those named, zeros when none is theirs), so
 * a report link shared by an admin opens without an error.
 * `userIds`: the figures (durations, ratings, targets) are those attendants' only; conversations
 * begun (volume, heatmap, byQueue.conversations) belong to no attendant and stay the queues'.
 */
import type { DurationFigures, ReportFigures, ReportQuery, ReportQueueRow, ReportSummary, ReportUserRow } from '#contracts/reports';
import { type DashboardViewer, resolvePeriod } from '#domain/dashboard/dashboard';
import { type CounterItem, readCounters } from '#storage/dashboard-counters';
import { listQueuesCached } from '#storage/queues/queues';
import { bucketName, HISTOGRAM_BUCKETS, quantile } from '#storage/report-histogram';
import { listUsers } from '#storage/users/users';

const DAY_MS = 86_400_000;
const RATINGS = [1, 2, 3, 4, 5];
const HOURS = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));

const isAdmin = (viewer: DashboardViewer) => viewer.profile === 'admin' || viewer.super;

/** Counter values summed per attribute suffix over `prefixes` ('' = the queue's, `u<id>` = an attendant's). */
function totals(items: CounterItem[], prefixes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items)
    for (const prefix of prefixes)
      for (const suffix of SUFFIXES) {
        const n = item.values[`${prefix}${suffix}`];
        if (n) out[suffix] = (out[suffix] ?? 0) + n;
      }
  return out;
}

const bucketSuffixes = (letter: string) => Array.from({ length: HISTOGRAM_BUCKETS }, (_, b) => `${letter}${bucketName(b)}`);
const SUFFIXES = [...bucketSuffixes('F'), ...bucketSuffixes('R'), ...RATINGS.map((r) => `G${r}`), 'Sm', 'Sb'];

function durations(sums: Record<string, number>, letter: string): DurationFigures {
  const counts = Array.from({ length: HISTOGRAM_BUCKETS }, (_, b) => sums[`${letter}${bucketName(b)}`] ?? 0);
  return { median: quantile(counts, 0.5), p90: quantile(counts, 0.9), count: counts.reduce((a, b) => a + b, 0) };
}

function figures(sums: Record<string, number>): ReportFigures {
  const counts = Object.fromEntries(RATINGS.map((r) => [String(r), sums[`G${r}`] ?? 0]));
  const rated = RATINGS.reduce((n, r) => n + (sums[`G${r}`] ?? 0), 0);
  const points = RATINGS.reduce((n, r) => n + r * (sums[`G${r}`] ?? 0), 0);
  const met = sums.Sm ?? 0;
  const missed = sums.Sb ?? 0;
  return {
    firstResponse: durations(sums, 'F'),
    resolution: durations(sums, 'R'),
    csat: { average: rated ? Math.round((points / rated) * 100) / 100 : null, counts },
    slaAttainment: met + missed ? Math.round((met / (met + missed)) * 1000) / 10 : null,
    slaMet: met,
    slaMissed: missed,
  };
}

/** The attendants with anything in `items` (their u<id>... attributes). */
function attendantIds(items: CounterItem[]): Set<number> {
  const ids = new Set<number>();
  for (const item of items)
    for (const attr of Object.keys(item.values)) {
      const match = /^u(\d+)/.exec(attr);
      if (match) ids.add(Number(match[1]));
    }
  return ids;
}

const begun = (item: CounterItem) => (item.values.open ?? 0) + (item.values.pending ?? 0) + (item.values.closed ?? 0);

export async function getReportSummary(viewer: DashboardViewer, query: ReportQuery, now = new Date()): Promise<ReportSummary> {
  const period = await resolvePeriod(viewer.companyId, { from: query.from, to: query.to, fromField: 'from', toField: 'to' }, now);
  const { items: all } = await readCounters(viewer.companyId, period.from, period.to);
  const mine = isAdmin(viewer) ? null : new Set(viewer.user.queueIds);
  const named = query.queueIds ? new Set(query.queueIds) : null;
  const items = all.filter((item) => (!mine || mine.has(item.queueId)) && (!named || named.has(item.queueId)));

  const present = attendantIds(items);
  const userIds = query.userIds ? query.userIds.filter((id) => present.has(id)) : [...present];
  const prefixes = query.userIds ? userIds.map((id) => `u${id}`) : [''];

  const [users, queues] = await Promise.all([listUsers(viewer.companyId), listQueuesCached(viewer.companyId)]);
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const queueName = new Map(queues.map((q) => [q.id, q.name]));

  const byUser: ReportUserRow[] = userIds
    .filter((id) => userName.has(id))
    .map((id) => ({ userId: id, name: userName.get(id) as string, ...figures(totals(items, [`u${id}`])) }))
    .sort((a, b) => b.resolution.count - a.resolution.count || a.name.localeCompare(b.name));

  const queueIds = [...new Set(items.map((item) => item.queueId))].sort((a, b) => a - b);
  const byQueue: ReportQueueRow[] = queueIds
    .map((queueId) => {
      const mineItems = items.filter((item) => item.queueId === queueId);
      return {
        queueId,
        name: queueId ? (queueName.get(queueId) ?? null) : null,
        conversations: mineItems.reduce((n, item) => n + begun(item), 0),
        ...figures(totals(mineItems, prefixes)),
      };
    })
    // Queue 0's items may hold only the new contacts' count: a row says something or is left out.
    .filter(
      (row) => row.conversations || row.firstResponse.count || row.resolution.count || row.slaMet + row.slaMissed || row.csat.average,
    );

  const perDay = new Map<string, number>();
  const cells = new Map<string, number>();
  for (const item of items) {
    perDay.set(item.day, (perDay.get(item.day) ?? 0) + begun(item));
    const weekday = new Date(`${item.day}T00:00:00Z`).getUTCDay();
    for (const hour of HOURS) {
      const n = item.values[`h${hour}`];
      if (n) cells.set(`${weekday}#${Number(hour)}`, (cells.get(`${weekday}#${Number(hour)}`) ?? 0) + n);
    }
  }
  const days = Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY_MS) + 1;
  const volume = Array.from({ length: days }, (_, i) => {
    const day = new Date(Date.parse(period.from) + i * DAY_MS).toISOString().slice(0, 10);
    return { day, conversations: perDay.get(day) ?? 0 };
  });
  const heatmap = Array.from({ length: 7 * 24 }, (_, i) => {
    const weekday = Math.floor(i / 24);
    const hour = i % 24;
    return { weekday, hour, conversations: cells.get(`${weekday}#${hour}`) ?? 0 };
  });

  return { period, ...figures(totals(items, prefixes)), volume, heatmap, byUser, byQueue };
}

/** A CSV cell: quoted when needed, a leading formula character defused (as the audit export). */
function cell(value: unknown): string {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = [
  'scope',
  'id',
  'name',
  'conversations',
  'firstResponseMedian',
  'firstResponseP90',
  'firstResponses',
  'resolutionMedian',
  'resolutionP90',
  'resolutions',
  'csatAverage',
  ...RATINGS.map((r) => `csat${r}`),
  'slaAttainment',
  'slaMet',
  'slaMissed',
];

function figureCells(f: ReportFigures): unknown[] {
  return [
    f.firstResponse.median,
    f.firstResponse.p90,
    f.firstResponse.count,
    f.resolution.median,
    f.resolution.p90,
    f.resolution.count,
    f.csat.average,
    ...RATINGS.map((r) => f.csat.counts[String(r)] ?? 0),
    f.slaAttainment,
    f.slaMet,
    f.slaMissed,
  ];
}

/** The summary's rows as CSV (durations in seconds): the total, each queue, each attendant, each day's volume. */
export function reportCsv(summary: ReportSummary): string {
  const total = summary.volume.reduce((n, d) => n + d.conversations, 0);
  const rows: unknown[][] = [
    CSV_COLUMNS,
    ['total', '', `${summary.period.from}..${summary.period.to}`, total, ...figureCells(summary)],
    ...summary.byQueue.map((q) => ['queue', q.queueId, q.name, q.conversations, ...figureCells(q)]),
    ...summary.byUser.map((u) => ['user', u.userId, u.name, '', ...figureCells(u)]),
    ...summary.volume.map((d) => ['day', '', d.day, d.conversations]),
  ];
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
