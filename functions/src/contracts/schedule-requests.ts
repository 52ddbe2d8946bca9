/**
 * Scheduled messages (SPEC 3 "Schedule message", 4 "Schedule (message)", 5, 7 "Quick messages,
 * schedules"): what the API takes and answers, shared by the functions and the web app.
 */
import * as z from 'zod';
import { instantOfLocal, LOCAL_DATE_TIME } from './zoned-time.ts';

/** SPEC 4: PENDENTE (saved) -> AGENDADA (taken by the sender) -> ENVIADA, or ERRO with the reason. */
export const scheduleStatuses = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof scheduleStatuses)[number];

/** SPEC 5 "Schedule message", in the spec's words (the web shows them in the user's language). */
export const scheduleMessages = { tooShort: 'mensaje muy corto', required: 'Obligatorio' } as const;

export const SCHEDULE_BODY_MIN = 5;
export const SCHEDULE_BODY_MAX = 4096;
export const SCHEDULES_PAGE_SIZE = 50;

const required = scheduleMessages.required;

/**
 * An instant: an ISO date-time with a zone (the web sends `toISOString()`), stored in UTC; or a
 * date-time without one (`2026-12-01T14:00`), kept as it is here: it is the company's wall clock
 * (issue 25 "One time zone"), which only the domain knows (settings/company-zone.ts `companyInstant`).
 */
const instant = z
  .string({ error: required })
  .trim()
  .min(1, required)
  .refine(
    (value) =>
      LOCAL_DATE_TIME.test(value)
        ? isLocalDateTime(value)
        : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)),
    'Invalid date',
  )
  .transform((value) => (LOCAL_DATE_TIME.test(value) ? value : new Date(value).toISOString()));

/** A real calendar date-time (no 31/02), whatever the zone: checked in UTC. */
const isLocalDateTime = (value: string) => instantOfLocal(value, 'UTC') !== undefined;

const body = z
  .string({ error: required })
  .max(SCHEDULE_BODY_MAX, 'Too Long!')
  .refine((value) => value.trim().length >= SCHEDULE_BODY_MIN, scheduleMessages.tooShort);

const positiveId = z.coerce.number({ error: required }).int(required).positive(required);

export const createScheduleSchema = z
  .object({
    body,
    contactId: positiveId,
    sendAt: instant,
    /** The conversation it was scheduled from: its connection sends it (BEHAVIOUR "Scheduled messages"). */
    ticketId: z.coerce.number().int().positive().nullish(),
  })
  .strip();
export type CreateScheduleInput = z.output<typeof createScheduleSchema>;

export const updateScheduleSchema = z
  .object({
    body: body.optional(),
    contactId: positiveId.optional(),
    sendAt: instant.optional(),
    ticketId: z.coerce.number().int().positive().nullish(),
  })
  .strip();
export type UpdateScheduleInput = z.output<typeof updateScheduleSchema>;

export const listSchedulesQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  contactId: z.coerce.number().int().positive().optional(),
});
export type ListSchedulesQuery = z.output<typeof listSchedulesQuerySchema>;

/** The schedule as the API answers it; `mediaPath` is the `/public/...` route, or null. */
export interface Schedule {
  id: number;
  companyId: number;
  body: string;
  contactId: number;
  contact: { id: number; name: string; number: string; profilePicUrl: string } | null;
  ticketId: number | null;
  whatsappId: number | null;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  /** Why it is ERRO (an ERR_ code), else null. */
  error: string | null;
  mediaPath: string | null;
  mediaName: string;
  userId: number;
  createdAt: string;
  updatedAt: string;
}

export interface SchedulesPage {
  schedules: Schedule[];
  hasMore: boolean;
}
