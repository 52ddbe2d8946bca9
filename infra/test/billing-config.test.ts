/**
 * Billing's deployment settings (issue 12): `-c asaasBaseUrl=... -c asaasWebhookToken=...` reach the
 * Lambda that serves the payment routes, and the webhook token reaches no other Lambda.
 * The same synth (one per file is the cdk project's cost) carries the bots' provider settings
 * (issue 13), checked in bot-providers-config.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_PROVIDER_CONTEXT, expectBotProviderEnv } from './bot-providers-config.ts';
import { type Synthesized, synthesize } from './synth.ts';

describe('billing configuration', () => {
  let synthesized: Synthesized;
  beforeAll(() => {
    synthesized = synthesize({
      bundle: false,
      context: {
        asaasBaseUrl: 'https://api-sandbox.asaas.com/v3',
        asaasWebhookToken: 'token-of-this-region-0123456789',
        ...BOT_PROVIDER_CONTEXT,
      },
    });
  });

  it('gives the provider URL and webhook token to the billing Lambda only', () => {
    const { template } = synthesized;

    // Assess
    const functions = Object.entries(template.findResources('AWS::Lambda::Function')).map(([id, resource]) => ({
      id,
      env: ((resource.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {}) as Record<
        string,
        unknown
      >,
    }));
    const withToken = functions.filter((fn) => fn.env.ASAAS_WEBHOOK_TOKEN);
    expect(withToken.map((fn) => fn.id)).toEqual([expect.stringMatching(/^CompaniesFunction/)]);
    expect(withToken[0]?.env).toMatchObject({
      ASAAS_BASE_URL: 'https://api-sandbox.asaas.com/v3',
      ASAAS_WEBHOOK_TOKEN: 'token-of-this-region-0123456789',
    });
  });

  it('gives the bot provider URLs and model to the Lambdas that call the providers only (issue 13)', () => {
    expectBotProviderEnv(synthesized.template);
  });
});
