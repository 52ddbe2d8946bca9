/**
 * The messages of the campaign engine's clock (the `campaign-ticks` queue): a connection's tick
 * (`seq`: only the current one acts) and a scheduled campaign's start (`scheduledAt`: only if the
 * campaign is still PROGRAMADA at that time).
 *
 * The clock is a port (`ClockSender`): each entry that reaches the engine (the campaigns routes, the
 * campaign-starts job, the campaign-ticks consumer) wires the SQS adapter (adapters/campaign-ticks.ts)
 * through adapters/wiring.ts; tests wire their own or pass one in the engine's deps.
 */

import * as z from 'zod';
import { port } from '#domain/port';

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

/** Queues `message` on the clock, delayed by `delaySeconds` (the adapter bounds it to what SQS allows). */
export type ClockSender = (message: CampaignClockMessage, delaySeconds: number) => Promise<void>;

const clock = port<ClockSender>('campaign clock');

/** Wires the transport (adapters/wiring.ts, a test with its recorder); returns the previous one. */
export const setClockSender = clock.set;

/** The wired clock; throws, naming the wiring, when the entry running the engine wired none. */
export const sendClockMessage: ClockSender = async (message, delaySeconds) => clock.wired()(message, delaySeconds);
