/** Requests of the tags API (SPEC 5 "Tag", 7 "Contacts, tags, users, queues"). */
import * as z from 'zod';

export const tagMessages = { tooShort: 'Mensagem muito curta', required: 'Obrigatório', tooLong: 'Mensagem muito longa' } as const;

const tagNameSchema = z
  .string({ error: tagMessages.required })
  .trim()
  .min(1, tagMessages.required)
  .min(3, tagMessages.tooShort)
  .max(100, tagMessages.tooLong);
const colorSchema = z.string().trim().min(1, tagMessages.required).max(30, tagMessages.tooLong);
/** 0/1 as the spec stores it; booleans and '0'/'1' accepted. */
const kanbanSchema = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.enum(['0', '1'])])
  .transform((v) => (v === 1 || v === true || v === '1' ? 1 : 0) as 0 | 1);

export const createTagSchema = z
  .object({ name: tagNameSchema, color: colorSchema.optional().default('#A4CCCC'), kanban: kanbanSchema.optional().default(0) })
  .strip();
export type CreateTagInput = z.output<typeof createTagSchema>;

export const updateTagSchema = z
  .object({ name: tagNameSchema.optional(), color: colorSchema.optional(), kanban: kanbanSchema.optional() })
  .strip();
export type UpdateTagInput = z.output<typeof updateTagSchema>;

export const listTagsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});

const id = z.coerce.number().int().positive();
/** The web sends the picked tags as objects; plain ids are accepted too. */
export const syncTagsSchema = z
  .object({
    ticketId: id,
    tags: z.array(z.union([id, z.object({ id }).transform((tag) => tag.id)])).max(30),
  })
  .strip();
export type SyncTagsInput = z.output<typeof syncTagsSchema>;

/** POST /ticket-tags/{ticketId}/move: the kanban lanes' tag ids, 0 for the Open lane (no tag). */
export const moveTicketTagSchema = z
  .object({ from: z.coerce.number().int().min(0), to: z.coerce.number().int().min(0) })
  .strip()
  .refine((move) => move.from !== move.to, { message: 'Same lane', path: ['to'] });
export type MoveTicketTagInput = z.output<typeof moveTicketTagSchema>;
