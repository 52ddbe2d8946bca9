/**
 * The bots' providers per region (issue 13): `-c openAiBaseUrl=... -c openAiModel=... -c
 * transcriptionBaseUrl=... -c dialogflowBaseUrl=...` reach the Lambdas that call the providers
 * (the integrations' testSession and the bot-turns consumer) as the env functions/src/commons/env.ts
 * reads, and no other Lambda; a context value that is not an http(s) URL stops the synth.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '../lib/bundling.ts';
import { stackPropsFromContext } from '../lib/context.ts';
import { botProviderFunctions, functionConstructId } from '../lib/conversa-stack.ts';
import { type Synthesized, synthesize } from './synth.ts';

const context = {
  openAiBaseUrl: 'https://llm.example.com/v1',
  openAiModel: 'gpt-4.1-mini',
  transcriptionBaseUrl: 'https://api.openai.com/v1',
  dialogflowBaseUrl: 'https://europe-west1-dialogflow.googleapis.com',
};

describe('bot provider configuration', () => {
  let synthesized: Synthesized;
  beforeAll(async () => {
    const { httpRoutes } = await import('@conversa/functions/routes');
    const lambdas = lambdaEntries();
    // A provider Lambda another change has not declared yet still gets its place, so the rule is tested today.
    const standIns = botProviderFunctions
      .filter((name) => !lambdas.some((lambda) => lambda.name === name))
      .map((name) => ({ name, entry: lambdas[0]!.entry, kind: 'http' as const }));
    synthesized = synthesize({ bundle: false, context, api: { routes: httpRoutes, lambdas: [...lambdas, ...standIns] } });
  });

  it('gives the provider URLs and model to the Lambdas that call the providers only', () => {
    const { template } = synthesized;

    // Assess
    const withProviders = Object.entries(template.findResources('AWS::Lambda::Function'))
      .map(([id, resource]) => ({
        id,
        env: ((resource.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {}) as Record<
          string,
          unknown
        >,
      }))
      .filter((fn) => fn.env.OPENAI_BASE_URL || fn.env.DIALOGFLOW_BASE_URL);
    expect(withProviders.map((fn) => fn.id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(
      botProviderFunctions.map(functionConstructId).sort(),
    );
    for (const fn of withProviders) {
      expect(fn.env).toMatchObject({
        OPENAI_BASE_URL: 'https://llm.example.com/v1',
        OPENAI_MODEL: 'gpt-4.1-mini',
        TRANSCRIPTION_BASE_URL: 'https://api.openai.com/v1',
        DIALOGFLOW_BASE_URL: 'https://europe-west1-dialogflow.googleapis.com',
      });
    }
  });

  it('refuses a provider URL that is not http(s)', () => {
    const app = new App({ context: { region: 'eu-west-1', dialogflowBaseUrl: 'dialogflow.googleapis.com' } });
    expect(() => stackPropsFromContext(app)).toThrow(/dialogflowBaseUrl .* is not an http\(s\) URL/);
  });
});
