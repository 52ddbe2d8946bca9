/**
 * Announcements (SPEC 3 "Announcement", 5, 7): platform-wide notices that super users write and every
 * company's users read in the top bar. Shared by the API and the web app.
 */
import * as z from 'zod';

const required = 'Obrigatório';

/** SPEC 9: 1 high (red), 2 medium (orange), 3 low (grey). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];

/** Forms send numbers and booleans as strings too; anything else is refused, never coerced. */
const priority = z.preprocess(
  (value) => (typeof value === 'string' && /^\d$/.test(value.trim()) ? Number(value) : value),
  z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Priority is 1, 2 or 3' }),
);
const flag = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const createAnnouncementSchema = z
  .object({
    title: z.string({ error: required }).trim().min(1, required).max(200, 'Too Long!'),
    text: z.string({ error: required }).trim().min(1, required).max(5000, 'Too Long!'),
    priority: priority.optional().default(3),
    status: flag.optional().default(true),
  })
  .strip();
export type CreateAnnouncementInput = z.output<typeof createAnnouncementSchema>;

export const updateAnnouncementSchema = z
  .object({
    title: z.string({ error: required }).trim().min(1, required).max(200, 'Too Long!').optional(),
    text: z.string({ error: required }).trim().min(1, required).max(5000, 'Too Long!').optional(),
    priority: priority.optional(),
    status: flag.optional(),
  })
  .strip();
export type UpdateAnnouncementInput = z.output<typeof updateAnnouncementSchema>;

export const listAnnouncementsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});
export type ListAnnouncementsQuery = z.output<typeof listAnnouncementsQuerySchema>;

/** As the API answers it; `mediaPath` is the image's `/public/...` route, or null. */
export interface Announcement {
  id: number;
  title: string;
  text: string;
  priority: AnnouncementPriority;
  status: boolean;
  mediaPath: string | null;
  mediaName: string;
  createdAt: string;
  updatedAt: string;
}

export interface AnnouncementsPage {
  records: Announcement[];
  hasMore: boolean;
}

/** `company-announcement` payload: every socket of every tenant gets it, so only what anyone may read travels. */
export type AnnouncementEvent = { action: 'create' | 'update'; record: Announcement } | { action: 'delete'; id: number };

/** SPEC 2 "Announcements": the image attachment is a .png, .jpg or .jpeg. */
export const ANNOUNCEMENT_IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};
