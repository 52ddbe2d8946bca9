/**
 * The campaign engine's clock: messages on the standard queue `campaign-ticks`, each delayed to its
 * time with DelaySeconds (at most 900 s; a longer wait is a chain of ticks). Ticks carry their
 * connection's seq (storage/campaigns/shipping.ts), starts the campaign's scheduledAt: the consumer
 * acts only on the current ones, so a duplicate delivery does nothing.
 */
import { env } from '#commons/env';
import { sendMessage } from '#commons/sqs';
import type { CampaignClockMessage } from '#domain/campaigns/clock';

export const CAMPAIGN_TICKS_QUEUE = 'campaign-ticks';

export type ClockSender = (message: CampaignClockMessage, delaySeconds: number) => Promise<void>;

const sendToQueue: ClockSender = async (message, delaySeconds) => {
  await sendMessage({
    QueueUrl: env.queueUrl(CAMPAIGN_TICKS_QUEUE),
    MessageBody: JSON.stringify(message),
    DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
  });
};

let sender: ClockSender = sendToQueue;

/** Tests swap the transport; returns the previous one. */
export function setClockSender(next: ClockSender | undefined): ClockSender {
  const previous = sender;
  sender = next ?? sendToQueue;
  return previous;
}

export const sendClockMessage: ClockSender = (message, delaySeconds) => sender(message, delaySeconds);
