import * as z from 'zod';
import { type ScheduleEntry, schedulesSchema } from './schedules.ts';
import { SLA_MAX_MINUTES } from './sla.ts';

/** SPEC 5 "Queue": name 2-50 required, colour 3-9 chars required, greetingMessage a string. */
export const queueMessages = { tooShort: 'Too Short!', tooLong: 'Too Long!', required: 'Required' } as const;

const text = z.string().max(4000);

/**
 * How a queue's new conversations reach its attendants (issue 22 §2): `off` leaves them in Pending
 * for someone to accept (the default); `roundRobin` gives each to the next attendant in turn,
 * `leastBusy` to the one with the fewest open tickets; only attendants online, taking automatic
 * assignments and under their maxOpenTickets.
 */
export const autoAssignModes = ['off', 'roundRobin', 'leastBusy'] as const;
export type AutoAssignMode = (typeof autoAssignModes)[number];
const optionalId = z.coerce.number().int().positive().nullable().optional();

const queueFields = {
  name: z
    .string({ error: queueMessages.required })
    .trim()
    .min(1, queueMessages.required)
    .min(2, queueMessages.tooShort)
    .max(50, queueMessages.tooLong),
  color: z
    .string({ error: queueMessages.required })
    .trim()
    .min(1, queueMessages.required)
    .min(3, queueMessages.tooShort)
    .max(9, queueMessages.tooLong),
  greetingMessage: text,
  complationMessage: text,
  outOfHoursMessage: text,
  ratingMessage: text,
  orderQueue: z.coerce.number().int().min(0).max(100_000).nullable(),
  integrationId: optionalId,
  promptId: optionalId,
  /** Empty = the queue keeps no hours of its own. */
  schedules: z.union([schedulesSchema, z.array(z.never()).length(0)]),
  /** Service levels (contracts/sla.ts): minutes of business time, 0 = no target. */
  firstResponseMinutes: z.number().int().min(0).max(SLA_MAX_MINUTES),
  resolutionMinutes: z.number().int().min(0).max(SLA_MAX_MINUTES),
  autoAssign: z.enum(autoAssignModes),
};

/** POST /queue. */
export const createQueueSchema = z.object({
  name: queueFields.name,
  color: queueFields.color,
  greetingMessage: queueFields.greetingMessage.optional().default(''),
  complationMessage: queueFields.complationMessage.optional().default(''),
  outOfHoursMessage: queueFields.outOfHoursMessage.optional().default(''),
  ratingMessage: queueFields.ratingMessage.optional().default(''),
  orderQueue: queueFields.orderQueue.optional().default(null),
  integrationId: queueFields.integrationId.default(null),
  promptId: queueFields.promptId.default(null),
  schedules: queueFields.schedules.optional().default([]),
  firstResponseMinutes: queueFields.firstResponseMinutes.optional().default(0),
  resolutionMinutes: queueFields.resolutionMinutes.optional().default(0),
  autoAssign: queueFields.autoAssign.optional().default('off'),
});
export type CreateQueueInput = z.infer<typeof createQueueSchema>;

/** PUT /queue/{id}: any subset of the fields (schedules included). */
export const updateQueueSchema = z.object({
  name: queueFields.name.optional(),
  color: queueFields.color.optional(),
  greetingMessage: queueFields.greetingMessage.optional(),
  complationMessage: queueFields.complationMessage.optional(),
  outOfHoursMessage: queueFields.outOfHoursMessage.optional(),
  ratingMessage: queueFields.ratingMessage.optional(),
  orderQueue: queueFields.orderQueue.optional(),
  integrationId: queueFields.integrationId,
  promptId: queueFields.promptId,
  schedules: queueFields.schedules.optional(),
  firstResponseMinutes: queueFields.firstResponseMinutes.optional(),
  resolutionMinutes: queueFields.resolutionMinutes.optional(),
  autoAssign: queueFields.autoAssign.optional(),
});
export type UpdateQueueInput = z.infer<typeof updateQueueSchema>;

export interface Queue {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: ScheduleEntry[];
  /** Service levels (contracts/sla.ts); absent on a queue stored before them: 0, no target. */
  firstResponseMinutes?: number;
  resolutionMinutes?: number;
  /** Absent on a queue stored before automatic assignment: `off`. */
  autoAssign?: AutoAssignMode;
  createdAt: string;
  updatedAt: string;
}

/** GET /queue-options: `parentId` -1 (or absent) means the root options. */
export const queueOptionsQuerySchema = z.object({
  queueId: z.coerce.number().int().positive(),
  parentId: z.coerce.number().int().min(-1).optional().default(-1),
});

const optionFields = {
  title: z.string().trim().max(200),
  message: z.string().max(4000),
  /** The ordinal the contact types to choose this option ("1", "2", ...). */
  option: z.coerce.string().trim().max(10),
};

/** POST /queue-options. */
export const createQueueOptionSchema = z.object({
  queueId: z.coerce.number().int().positive(),
  parentId: z.coerce.number().int().positive().nullable().optional().default(null),
  title: optionFields.title.optional().default(''),
  message: optionFields.message.optional().default(''),
  option: optionFields.option.optional().default(''),
});
export type CreateQueueOptionInput = z.infer<typeof createQueueOptionSchema>;

/** PUT /queue-options/{id}: the node's text; it does not move to another queue or parent. */
export const updateQueueOptionSchema = z.object({
  title: optionFields.title.optional(),
  message: optionFields.message.optional(),
  option: optionFields.option.optional(),
});
export type UpdateQueueOptionInput = z.infer<typeof updateQueueOptionSchema>;

export interface QueueOption {
  id: number;
  companyId: number;
  queueId: number;
  /** null = a root option of the queue's menu. */
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-queue` payload. */
export type QueueEvent =
  | { action: 'create' | 'update'; queue: Queue }
  | { action: 'delete'; queueId: number }
  /** The option tree of `queueId` changed. */
  | { action: 'options'; queueId: number };
