/** Requests of the contacts API (SPEC 5 "Contact", SPEC 7 "Contacts, tags, users, queues"). */
import * as z from 'zod';
import { messages } from './common.ts';

const digits = (value: string) => value.replace(/\D/g, '');

export const contactNumberSchema = z
  .string({ error: messages.required })
  .transform(digits)
  .pipe(z.string().min(1, messages.required).min(8, messages.tooShort).max(50, messages.tooLong));

/**
 * A phone number as a sheet's cell holds it (the contacts import and a contact list's import). The
 * form's rule strips every non-digit, which let a cell with letters ("11 95555-0031 ramal 12"), two
 * numbers, or Excel's "5.51196E+12" through as some other number. Here the cell must be one number
 * in digits and phone punctuation, in international form (a country code never starts with 0), or
 * the row is refused as 'Invalid number' (issue 25).
 */
const PHONE_CELL = /^\+?[\d\s().-]*$/;
export const importedNumberSchema = z
  .string({ error: messages.required })
  .trim()
  .refine((cell) => PHONE_CELL.test(cell), messages.invalidNumber)
  .pipe(contactNumberSchema)
  .refine((number) => !number.startsWith('0'), messages.invalidNumber);

/** The longest contact name, typed or taken from a WhatsApp profile (domain/contacts/resolve.ts). */
export const CONTACT_NAME_MAX = 50;

export const contactNameSchema = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .min(2, messages.tooShort)
  .max(CONTACT_NAME_MAX, messages.tooLong);

/** Empty string allowed (no email); otherwise a valid address. */
export const optionalEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(200, messages.tooLong)
  .refine((value) => value === '' || z.email().safeParse(value).success, messages.invalidEmail);

const extraInfoSchema = z
  .array(z.object({ name: z.string().trim().min(1, messages.required).max(100), value: z.string().max(1000) }).strip())
  .max(50);

export const createContactSchema = z
  .object({
    name: contactNameSchema,
    number: contactNumberSchema,
    email: optionalEmailSchema.optional().default(''),
    extraInfo: extraInfoSchema.optional().default([]),
  })
  .strip();
export type CreateContactInput = z.output<typeof createContactSchema>;

export const updateContactSchema = z
  .object({
    name: contactNameSchema.optional(),
    number: contactNumberSchema.optional(),
    email: optionalEmailSchema.optional(),
    extraInfo: extraInfoSchema.optional(),
  })
  .strip();
export type UpdateContactInput = z.output<typeof updateContactSchema>;

const isoDate = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Invalid date')
  .optional();

export const CONTACTS_PAGE_SIZE = 20;

export const listContactsQuerySchema = z.object({
  /** Searches from 3 characters (SPEC 5); shorter is the unfiltered list. */
  searchParam: z.string().trim().max(100).optional().default(''),
  /** 1-based; deep pages walk the pages before them: prefer `cursor`. */
  pageNumber: z.coerce.number().int().min(1).max(100).optional().default(1),
  cursor: z.string().max(4000).optional(),
  /** A day (YYYY-MM-DD): contacts created that day. */
  date: isoDate,
  dateStart: isoDate,
  dateEnd: isoDate,
});
export type ListContactsQuery = z.output<typeof listContactsQuerySchema>;

/** GET /contacts/list: every contact's name and number, for pickers. */
export const listAllContactsQuerySchema = z.object({ searchParam: z.string().trim().max(100).optional().default('') });

/** GET /contacts/export: one page of the export; `cursor` is the previous page's. */
export const exportContactsQuerySchema = z.object({ cursor: z.string().max(4000).optional() });
