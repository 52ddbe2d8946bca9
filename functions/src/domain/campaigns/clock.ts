/**
 * The messages of the campaign engine's clock (the `campaign-ticks` queue): a connection's tick
 * (`seq`: only the current one acts) and a scheduled campaign's start (`scheduledAt`: only if the
 * campaign is still PROGRAMADA at that time).
 */
import * as z from 'zod';

const id = z.number().int().positive();

export const campaignClockSchema = z.discriminatedUnion('kind', [
  // `recover`: queued again by the campaign-starts job for a chain whose tick was lost (lifecycle.ts).
  z.object({
    kind: z.literal('tick'),
    companyId: id,
    connectionId: id,
    seq: z.number().int().nonnegative(),
    recover: z.literal(true).optional(),
  }),
  z.object({ kind: z.literal('start'), companyId: id, campaignId: id, scheduledAt: z.string().min(1) }),
]);
export type CampaignClockMessage = z.infer<typeof campaignClockSchema>;
