/**
 * The app client cannot write the attributes that carry tenancy: a signed-in user calling
 * UpdateUserAttributes with its own access token must not be able to set custom:companyId or
 * custom:userId (and so get another company's ids in its next ID token).
 */
import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_READ_ATTRIBUTES, CLIENT_WRITE_ATTRIBUTES } from '../lib/client-attributes.ts';
import { resourcesOf, type Synthesized, synthesize } from './synth.ts';

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize({ bundle: false });
});

describe('user pool app client', () => {
  it('declares its writable attributes explicitly, none of them custom', () => {
    const clients = resourcesOf(synth.template, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const props = clients[0]![1].Properties as { WriteAttributes?: string[]; ReadAttributes?: string[] };
    // Absent or empty means "all writable attributes" to Cognito.
    expect(props.WriteAttributes?.length).toBeGreaterThan(0);
    expect(props.WriteAttributes?.some((name) => name.startsWith('custom:'))).toBe(false);
    expect(props.WriteAttributes).not.toContain('email');
    expect([...(props.WriteAttributes ?? [])].sort()).toEqual([...CLIENT_WRITE_ATTRIBUTES].sort());
  });

  it('still reads the tenancy attributes, so they ride in the ID token', () => {
    const props = resourcesOf(synth.template, 'AWS::Cognito::UserPoolClient')[0]![1].Properties as { ReadAttributes?: string[] };
    expect(props.ReadAttributes).toEqual(expect.arrayContaining(['custom:companyId', 'custom:userId', 'email']));
    expect([...(props.ReadAttributes ?? [])].sort()).toEqual([...CLIENT_READ_ATTRIBUTES].sort());
  });
});

describe('user pool triggers', () => {
  it('runs the post-confirmation handler, which may end the user’s sessions and names no pool (synth refuses a cycle)', () => {
    const pool = resourcesOf(synth.template, 'AWS::Cognito::UserPool')[0]![1].Properties as {
      LambdaConfig?: { PostConfirmation?: { 'Fn::GetAtt': [string, string] } };
    };
    const target = pool.LambdaConfig?.PostConfirmation?.['Fn::GetAtt']?.[0];
    expect(target).toBe(synth.stack.getLogicalId(synth.stack.functions.get('post-confirmation')!.node.defaultChild as CfnElement));
    const fn = synth.template.toJSON().Resources[target as string].Properties as { Environment?: { Variables?: Record<string, unknown> } };
    expect(fn.Environment?.Variables).not.toHaveProperty('USER_POOL_ID');
    // Cognito may invoke it, and its role may sign the user out everywhere
    expect(
      resourcesOf(synth.template, 'AWS::Lambda::Permission').some(
        ([, resource]) => (resource.Properties as { Principal?: string }).Principal === 'cognito-idp.amazonaws.com',
      ),
    ).toBe(true);
    const statements = resourcesOf(synth.template, 'AWS::IAM::Policy').flatMap(
      ([, resource]) =>
        (resource.Properties as { PolicyDocument: { Statement: { Action: string | string[] }[] } }).PolicyDocument.Statement,
    );
    expect(statements.some((statement) => [statement.Action].flat().includes('cognito-idp:AdminUserGlobalSignOut'))).toBe(true);
  });

  it('runs the pre token generation handler as a version 2 trigger on the Essentials plan, with no admin grant', () => {
    // Version 2 is the one whose answer changes access tokens (it takes the self-service scope out,
    // so Cognito refuses ChangePassword with the web app's tokens); Lite pools cannot run it.
    const pool = resourcesOf(synth.template, 'AWS::Cognito::UserPool')[0]![1].Properties as {
      UserPoolTier?: string;
      LambdaConfig?: { PreTokenGenerationConfig?: { LambdaArn?: { 'Fn::GetAtt': [string, string] }; LambdaVersion?: string } };
    };
    expect(pool.UserPoolTier).toBe('ESSENTIALS');
    expect(pool.LambdaConfig?.PreTokenGenerationConfig?.LambdaVersion).toBe('V2_0');
    const fn = synth.stack.functions.get('pre-token-generation')!;
    const target = pool.LambdaConfig?.PreTokenGenerationConfig?.LambdaArn?.['Fn::GetAtt']?.[0];
    expect(target).toBe(synth.stack.getLogicalId(fn.node.defaultChild as CfnElement));
    const permissions = resourcesOf(synth.template, 'AWS::Lambda::Permission').filter(
      ([, resource]) =>
        (resource.Properties as { Principal?: string; FunctionName?: unknown }).Principal === 'cognito-idp.amazonaws.com' &&
        JSON.stringify((resource.Properties as { FunctionName?: unknown }).FunctionName).includes(target as string),
    );
    expect(permissions).toHaveLength(1);
  });
});
