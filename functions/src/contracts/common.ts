import * as z from 'zod';
import { messages } from './form-messages.ts';

export { messages };

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
