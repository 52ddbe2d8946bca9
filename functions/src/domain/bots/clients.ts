/**
 * The outside calls a bot turn makes: the providers (adapters/*), the secrets and the media bucket.
 * One object, so a test can swap a client (or count its calls) without touching the others.
 */

import { postToWebhook } from '#adapters/bot-webhook';
import { detectIntent } from '#adapters/dialogflow';
import { chatCompletion, transcribeAudio, transcriptionConfigured } from '#adapters/openai';
import { continueTypebotChat, startTypebotChat } from '#adapters/typebot';
import { openSecret } from '#commons/secrets';
import { getMedia } from '#domain/media/bucket';

export interface BotClients {
  chatCompletion: typeof chatCompletion;
  transcribeAudio: typeof transcribeAudio;
  transcriptionConfigured: typeof transcriptionConfigured;
  startTypebotChat: typeof startTypebotChat;
  continueTypebotChat: typeof continueTypebotChat;
  postToWebhook: typeof postToWebhook;
  detectIntent: typeof detectIntent;
  openSecret: typeof openSecret;
  readMedia(key: string): Promise<Uint8Array>;
}

export const defaultBotClients: BotClients = {
  chatCompletion,
  transcribeAudio,
  transcriptionConfigured,
  startTypebotChat,
  continueTypebotChat,
  postToWebhook,
  detectIntent,
  openSecret,
  readMedia: getMedia,
};
