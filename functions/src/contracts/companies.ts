import * as z from 'zod';
import { emailSchema, messages, passwordSchema, personNameSchema } from './common.ts';
import type { PlanFlag } from './plans.ts';
import type { ScheduleEntry } from './schedules.ts';
import type { Setting } from './settings.ts';

export const recurrences = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type Recurrence = (typeof recurrences)[number];
/** SPEC 9: months added by "+ Vencimiento" and by a paid invoice. */
export const recurrenceMonths: Record<Recurrence, number> = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };

/** SPEC 9: signup gives a 3-day trial. */
export const TRIAL_DAYS = 3;
/** SPEC 9: warn when fewer than 5 days remain. */
export const DUE_DATE_WARNING_DAYS = 5;

/**
 * Digits only, country code + area code + number (the signup mask gives 11 digits). An empty phone is
 * 'Required' (the first issue is the one shown), not 'Too Short!'.
 */
const phoneSchema = z
  .string()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().min(1, messages.required).min(10, messages.tooShort).max(13, messages.tooLong));

/**
 * POST /companies/cadastro. Same rules as the user form (SPEC 5 "Signup"). `name` is the company's;
 * `ownerName` is the person signing up, the first admin's name (issue 25: the company's name used to
 * greet them, sign their messages and show as "Assigned to").
 */
export const signupSchema = z.object({
  name: personNameSchema,
  ownerName: personNameSchema,
  email: emailSchema,
  phone: phoneSchema,
  password: passwordSchema,
  planId: z.coerce.number({ error: messages.required }).int().positive(messages.required),
  recurrence: z.enum(recurrences).optional().default('MENSAL'),
});
export type SignupInput = z.infer<typeof signupSchema>;

/**
 * A due date: a calendar day that exists (YYYY-MM-DD, or a timestamp of that day), years up to 9999.
 * Anything else is refused (400 naming dueDate) rather than stored cut ('+275760-09-13' became
 * '+275760-09') or as null (no due date: the company would never expire). '' and null mean none
 * (SPEC 5 "Company form": the form sends an empty due date as null).
 */
const DUE_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

function isCalendarDay(value: string): boolean {
  const match = DUE_DAY.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  // Date.UTC rolls 2024-13-45 over into 2025; years below 100 map to 19xx: both fail the round trip.
  return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const dueDay = z
  .string()
  .trim()
  .refine(isCalendarDay, 'Invalid date: expected a calendar day (YYYY-MM-DD)')
  .transform((value) => value.slice(0, 10));
const dueDateInput = z.union([z.literal('').transform(() => null), z.null(), dueDay]);
const isoDateOrNull = dueDateInput.optional().transform((value) => value ?? null);

/** Super-admin company form (SPEC 5 "Company form": email and plan required; an empty due date is null). */
export const companyInputSchema = z.object({
  name: z.string().trim().min(2, messages.tooShort).max(100, messages.tooLong),
  email: emailSchema,
  phone: z.string().max(30).optional().default(''),
  planId: z.coerce.number({ error: messages.required }).int().positive(messages.required),
  status: z.boolean().optional().default(true),
  dueDate: isoDateOrNull,
  recurrence: z.enum(recurrences).optional().default('MENSAL'),
  campaignsEnabled: z.boolean().optional().default(false),
  addressZipCode: z.string().max(20).optional().default(''),
  addressStreet: z.string().max(200).optional().default(''),
  addressState: z.string().max(100).optional().default(''),
  addressCity: z.string().max(100).optional().default(''),
  addressDistrict: z.string().max(100).optional().default(''),
  /** Only on create: the company's first admin. */
  password: passwordSchema.optional(),
  /** On update: add one recurrence period to the due date on the server ("+ Vencimiento"). */
  extendDueDate: z.boolean().optional(),
});
export type CompanyInput = z.infer<typeof companyInputSchema>;

/**
 * PUT /companies/{id}: the same fields, each optional and without defaults, so a partial body
 * (`{ "extendDueDate": true }`) changes only what it names.
 */
export const companyUpdateSchema = z.object({
  name: companyInputSchema.shape.name.optional(),
  email: emailSchema.optional(),
  phone: z.string().max(30).optional(),
  planId: z.coerce.number().int().positive(messages.required).optional(),
  status: z.boolean().optional(),
  dueDate: dueDateInput.optional(),
  recurrence: z.enum(recurrences).optional(),
  campaignsEnabled: z.boolean().optional(),
  addressZipCode: z.string().max(20).optional(),
  addressStreet: z.string().max(200).optional(),
  addressState: z.string().max(100).optional(),
  addressCity: z.string().max(100).optional(),
  addressDistrict: z.string().max(100).optional(),
  extendDueDate: z.boolean().optional(),
});
export type CompanyUpdateInput = z.infer<typeof companyUpdateSchema>;

export interface Company {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number;
  plan?: { id: number; name: string } & Record<PlanFlag, boolean>;
  status: boolean;
  /** YYYY-MM-DD, or null for no due date. */
  dueDate: string | null;
  trialExpiration?: string | null;
  recurrence: Recurrence;
  campaignsEnabled: boolean;
  addressZipCode: string;
  addressStreet: string;
  addressState: string;
  addressCity: string;
  addressDistrict: string;
  schedules: ScheduleEntry[];
  settings?: Setting[];
  createdAt: string;
  updatedAt: string;
}
