import * as z from 'zod';

export const helpInputSchema = z.object({
  title: z.string().trim().min(1, 'Required').max(200, 'Too Long!'),
  description: z.string().max(2000).optional().default(''),
  /** Video code (e.g. a YouTube id). */
  video: z.string().trim().max(200).optional().default(''),
});
export type HelpInput = z.infer<typeof helpInputSchema>;

export interface Help extends HelpInput {
  id: number;
  createdAt: string;
  updatedAt: string;
}
