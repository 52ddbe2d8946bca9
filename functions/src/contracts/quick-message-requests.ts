/** Requests of the quick messages API (SPEC 5 "Quick message", 7 "Quick messages"). */
import * as z from 'zod';

const required = 'Obrigatório';
const flag = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const createQuickMessageSchema = z
  .object({
    shortcode: z.string({ error: required }).trim().min(1, required).max(100, 'Too Long!'),
    message: z.string().max(10_000, 'Too Long!').optional().default(''),
    geral: flag.optional().default(false),
    status: flag.optional().default(true),
  })
  .strip();
export type CreateQuickMessageInput = z.output<typeof createQuickMessageSchema>;

export const updateQuickMessageSchema = z
  .object({
    shortcode: z.string({ error: required }).trim().min(1, required).max(100, 'Too Long!').optional(),
    message: z.string().max(10_000, 'Too Long!').optional(),
    geral: flag.optional(),
    status: flag.optional(),
  })
  .strip();
export type UpdateQuickMessageInput = z.output<typeof updateQuickMessageSchema>;

export const listQuickMessagesQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  userId: z.coerce.number().int().positive().optional(),
});
export type ListQuickMessagesQuery = z.output<typeof listQuickMessagesQuerySchema>;
