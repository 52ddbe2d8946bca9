/**
 * What every bot provider client (openai.ts, typebot.ts, bot-webhook.ts, dialogflow.ts) throws: one
 * class, so the bot-turns consumer hands the ticket back to the humans on any of them without knowing
 * the provider's own error shapes. `status` is the provider's HTTP status when it answered, or why it
 * did not: 'timeout' (no answer within the client's timeout), 'network' (unreachable host, refused or
 * dropped connection) or 'invalid' (an answer we cannot read, or a configuration we cannot use).
 * Messages never carry the tenant's keys: they go to the logs.
 */
export type BotProvider = 'openai' | 'typebot' | 'webhook' | 'dialogflow';
export type ProviderFailure = number | 'timeout' | 'network' | 'invalid';

export class ProviderError extends Error {
  constructor(
    readonly provider: BotProvider,
    readonly status: ProviderFailure,
    message: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'ProviderError';
  }
}
