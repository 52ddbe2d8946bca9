/**
 * The key sealing tenant secrets (functions/src/commons/secrets.ts): one generated Secrets Manager
 * secret, kept when the stack goes, whose ARN and read access reach only the Lambdas that seal or open
 * AI API keys and integration credentials, never the rest.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synthesize } from './synth.ts';

// auth: the second factor's TOTP secrets and the sealed tokens of a sign-in challenge (issue 21).
// webhooks and webhook-deliveries: the endpoints' signing secrets, sealed and opened to sign (issue 23 §2).
const READERS = new Set(['prompts', 'queue-integrations', 'bot-turns', 'auth', 'webhooks', 'webhook-deliveries']);

type Json = Record<string, unknown>;

describe('secrets key', () => {
  let synthesized: Synthesized;
  beforeAll(() => {
    synthesized = synthesize({ bundle: false });
  });

  it('is one generated secret, retained on stack deletion', () => {
    const secrets = synthesized.template.findResources('AWS::SecretsManager::Secret');
    expect(Object.values(secrets)).toHaveLength(1);
    const [secret] = Object.values(secrets) as Json[];
    expect(secret?.DeletionPolicy).toBe('Retain');
    expect((secret?.Properties as Json | undefined)?.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
  });

  it('reaches only the Lambdas that seal or open tenant secrets', () => {
    const { stack, template } = synthesized;
    const [secretId] = Object.keys(template.findResources('AWS::SecretsManager::Secret'));
    const fns = template.findResources('AWS::Lambda::Function');
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Json[];
    const withKey: string[] = [];
    for (const [name, fn] of stack.functions) {
      const id = stack.getLogicalId(fn.node.defaultChild as never);
      const vars = (((fns[id] as Json).Properties as Json).Environment as { Variables: Json }).Variables;
      const roleId = stack.getLogicalId(fn.role?.node.defaultChild as never);
      const reads = policies.some(
        (p) =>
          JSON.stringify((p.Properties as Json).Roles).includes(roleId) &&
          JSON.stringify((p.Properties as Json).PolicyDocument).includes('secretsmanager:GetSecretValue') &&
          JSON.stringify((p.Properties as Json).PolicyDocument).includes(secretId as string),
      );
      expect(reads, name).toBe(READERS.has(name));
      expect(vars.SECRETS_KEY_ARN !== undefined, name).toBe(READERS.has(name));
      if (vars.SECRETS_KEY_ARN) withKey.push(name);
    }
    console.log('Lambdas with the secrets key:', withKey);
  });
});
