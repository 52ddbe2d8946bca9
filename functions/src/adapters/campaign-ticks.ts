/**
 * The campaign engine's clock (domain/campaigns/clock.ts's port): messages on the standard queue
 * `campaign-ticks`, each delayed to its time with DelaySeconds (at most 900 s; a longer wait is a
 * chain of ticks). Ticks carry their connection's seq (storage/campaigns/shipping.ts), starts the
 * campaign's scheduledAt: the consumer acts only on the current ones, so a duplicate delivery does nothing.
 */
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';
import type { ClockSender } from '#domain/campaigns/clock';

export const CAMPAIGN_TICKS_QUEUE = 'campaign-ticks';

export const sendClockToQueue: ClockSender = async (message, delaySeconds) => {
  await sendMessage({
    QueueUrl: env.queueUrl(CAMPAIGN_TICKS_QUEUE),
    MessageBody: JSON.stringify(message),
    DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
  });
};
