/** Reports (issue 22 §4): GET /reports/summary and /reports/export.csv. Durations are in seconds. */
import * as z from 'zod';
import { isoDaySchema } from './dashboard.ts';

/**
 * The durations' histogram spans these (storage/report-histogram.ts): below the first, a median is
 * only known to be under 30 s; from the second on, to be at least 2 days. The page says so.
 */
export const REPORT_MIN_SECONDS = 30;
export const REPORT_MAX_SECONDS = 2 * 86_400;

/** At most this many ids in one filter. */
export const REPORT_MAX_IDS = 100;

/** A comma list of positive integers ("3,7"), each below 2^31, at most REPORT_MAX_IDS, duplicates dropped. */
const idListSchema = z
  .string()
  .trim()
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Use a comma list of ids')
  .transform((value) => [...new Set(value.split(',').map(Number))])
  .refine((ids) => ids.every((id) => id >= 1 && id < 2 ** 31), 'Ids are positive integers')
  .refine((ids) => ids.length <= REPORT_MAX_IDS, `At most ${REPORT_MAX_IDS} ids`);

/**
 * from..to: days in the company's time zone, both included, at most DASHBOARD_MAX_DAYS (366);
 * without them, the first of this month to today. queueIds: only those queues (a plain user's own
 * queues at most); userIds: only those attendants' figures.
 */
export const reportQuerySchema = z
  .object({
    from: isoDaySchema.optional(),
    to: isoDaySchema.optional(),
    queueIds: idListSchema.optional(),
    userIds: idListSchema.optional(),
  })
  .strip();
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** Median and p90 estimated from log-scale buckets (functions/src/storage/report-histogram.ts: within a factor ~1.86). */
export interface DurationFigures {
  median: number | null;
  p90: number | null;
  /** How many durations were measured. */
  count: number;
}

export interface CsatFigures {
  /** Average rating of the period's ratings (SPEC: 1-3), null without any. */
  average: number | null;
  /** Ratings by value: { "1": n, "2": n, ... }. */
  counts: Record<string, number>;
}

export interface ReportFigures {
  /** Conversation start (convAt) to its first attendant message. */
  firstResponse: DurationFigures;
  /** Conversation start (convAt) to its close. */
  resolution: DurationFigures;
  csat: CsatFigures;
  /** Percent (0-100, one decimal) of service-level targets met, of those settled in the period; null without any. */
  slaAttainment: number | null;
  slaMet: number;
  slaMissed: number;
}

export interface ReportUserRow extends ReportFigures {
  userId: number;
  name: string;
}

export interface ReportQueueRow extends ReportFigures {
  /** 0: conversations in no queue. */
  queueId: number;
  name: string | null;
  /** Conversations begun in the period, now in this queue. */
  conversations: number;
}

export interface ReportSummary extends ReportFigures {
  period: { from: string; to: string; timeZone: string };
  /** Conversations begun per day (every day of the period). */
  volume: { day: string; conversations: number }[];
  /** Conversations begun by weekday (0 = Sunday) and hour (0-23), the company's clock: 168 cells. */
  heatmap: { weekday: number; hour: number; conversations: number }[];
  byUser: ReportUserRow[];
  byQueue: ReportQueueRow[];
}
