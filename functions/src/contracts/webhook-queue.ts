/** The webhook queues' message (adapters/webhook-queue.ts DeliveryAttempt), as the consumers validate it. */
import * as z from 'zod';

export const deliveryAttemptSchema = z.object({
  companyId: z.number().int().positive(),
  endpointId: z.number().int().positive(),
  deliveryId: z.string().min(1).max(64),
  round: z.number().int().min(0),
  attempt: z.number().int().min(1),
  dueAt: z.string().datetime().optional(),
});
