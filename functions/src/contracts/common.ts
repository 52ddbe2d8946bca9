import * as z from 'zod';

/** Spec messages (SPEC 5): the user form and signup share these. */
export const messages = {
  tooShort: 'Too Short!',
  tooLong: 'Too Long!',
  required: 'Required',
  invalidEmail: 'Invalid email',
  /** BEHAVIOUR "Passwords": one policy everywhere, the reset rule's. */
  weakPassword: 'Password must have at least 8 characters, a digit, a lowercase and an uppercase letter',
  /** A connection's API token: short ones could be guessed (issue 9). */
  shortToken: 'The token must have at least 16 characters',
} as const;

export const PASSWORD_RULE = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,50}$/;

export const passwordSchema = z.string().regex(PASSWORD_RULE, messages.weakPassword);
export const emailSchema = z
  .string({ error: messages.required })
  .trim()
  .toLowerCase()
  .min(1, messages.required)
  .email(messages.invalidEmail);
export const personNameSchema = z
  .string({ error: messages.required })
  .trim()
  .min(1, messages.required)
  .min(2, messages.tooShort)
  .max(50, messages.tooLong);

/** Numeric id in a path: `/users/{id}`. */
export const idParamSchema = z.coerce.number().int().positive();

/** Page-number pagination as the spec's `pageNumber` query parameter (1-based). */
export const pageQuerySchema = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});

export type Paginated<K extends string, T> = { [key in K]: T[] } & { hasMore: boolean; count?: number };

export type ToggleValue = 'enabled' | 'disabled';
