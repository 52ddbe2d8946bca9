/**
 * The bots' providers per region (issue 13): `-c openAiBaseUrl=... -c openAiModel=... -c
 * transcriptionBaseUrl=... -c dialogflowBaseUrl=...` reach the Lambdas that call the providers (the
 * integrations' testSession and the bot-turns consumer) as the env functions/src/commons/env.ts reads,
 * and no other Lambda. billing-config.test.ts synthesizes with this context and runs the check (a synth
 * of its own would add a minute to the cdk project); context.test.ts checks the URLs are validated.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';
import { botProviderFunctions, functionConstructId } from '../lib/conversa-stack.ts';

export const BOT_PROVIDER_CONTEXT = {
  openAiBaseUrl: 'https://llm.example.com/v1',
  openAiModel: 'gpt-4.1-mini',
  transcriptionBaseUrl: 'https://api.openai.com/v1',
  dialogflowBaseUrl: 'https://europe-west1-dialogflow.googleapis.com',
};

export function expectBotProviderEnv(template: Template): void {
  const withProviders = Object.entries(template.findResources('AWS::Lambda::Function'))
    .map(([id, resource]) => ({
      id,
      env: ((resource.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {}) as Record<
        string,
        unknown
      >,
    }))
    .filter((fn) => fn.env.OPENAI_BASE_URL || fn.env.DIALOGFLOW_BASE_URL);
  // Every provider Lambda is deployed today (routes.ts: queue-integrations; message-queues.ts: bot-turns).
  expect(withProviders.map((fn) => fn.id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(botProviderFunctions.map(functionConstructId).sort());
  for (const fn of withProviders) {
    expect(fn.env).toMatchObject({
      OPENAI_BASE_URL: 'https://llm.example.com/v1',
      OPENAI_MODEL: 'gpt-4.1-mini',
      TRANSCRIPTION_BASE_URL: 'https://api.openai.com/v1',
      DIALOGFLOW_BASE_URL: 'https://europe-west1-dialogflow.googleapis.com',
    });
  }
}
