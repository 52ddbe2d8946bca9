/**
 * Password recovery only through our API (issue 21): the pool's recovery is admin-only, so Cognito's
 * own ForgotPassword/ConfirmForgotPassword are refused, and the one Lambda that mails our code (auth)
 * gets the sender in MAIL_FROM and ses:SendEmail on that sender's identities only.
 */
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_RECOVERY_SETTING } from '../lib/account-recovery.ts';
import { stackPropsFromContext } from '../lib/context.ts';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { defaultMailFrom } from '../lib/mail-sender.ts';
import { logicalIdOf, resourcesOf, type Synthesized, synthesize, TEST_REGION } from './synth.ts';

type Json = Record<string, unknown>;
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize({ bundle: false });
});

/** Every statement granting an SES action, with the roles its policy is attached to. */
function sesGrants(s: Synthesized): { roles: string[]; statement: Statement }[] {
  return resourcesOf(s.template, 'AWS::IAM::Policy').flatMap(([, policy]) => {
    const props = policy.Properties as { Roles?: { Ref?: string }[]; PolicyDocument: { Statement: Statement[] } };
    return props.PolicyDocument.Statement.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ses:'))).map(
      (statement) => ({ roles: (props.Roles ?? []).map((role) => String(role.Ref)), statement }),
    );
  });
}

const envOf = (s: Synthesized, name: string): Json => {
  const id = logicalIdOf(s.template, 'AWS::Lambda::Function', functionConstructId(name));
  return ((s.template.toJSON().Resources[id].Properties as Json).Environment as { Variables: Json }).Variables;
};

/** `arn:${Partition}:ses:eu-west-1:${AccountId}:identity/<name>` as the template writes it. */
const identityArn = (name: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:ses:${TEST_REGION}:`, { Ref: 'AWS::AccountId' }, `:identity/${name}`]],
});

describe('password recovery', () => {
  it('the pool’s recovery is admin-only: Cognito sends and confirms no reset code of its own', () => {
    const pools = resourcesOf(synth.template, 'AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    const pool = pools[0]![1].Properties as { AccountRecoverySetting?: unknown };
    expect(pool.AccountRecoverySetting).toEqual({ RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] });
    // The same declaration the local Cognito proxy enforces
    expect(pool.AccountRecoverySetting).toEqual(ACCOUNT_RECOVERY_SETTING);
  });

  it('only the auth Lambda may send mail, and only from the sender’s identities; it gets the sender in MAIL_FROM', () => {
    // Prepare
    const authRole = logicalIdOf(synth.template, 'AWS::IAM::Role', `${functionConstructId('auth')}Role`);
    // Assess: one grant, to auth's role, ses:SendEmail on the domain and the address, no wildcard
    const grants = sesGrants(synth);
    expect(grants).toHaveLength(1);
    expect(grants[0]?.roles).toEqual([authRole]);
    expect(grants[0]?.statement).toMatchObject({ Effect: 'Allow', Action: 'ses:SendEmail' });
    expect(grants[0]?.statement.Resource).toEqual([identityArn('conversa.invalid'), identityArn('no-reply@conversa.invalid')]);
    expect(envOf(synth, 'auth').MAIL_FROM).toBe('Conversa <no-reply@conversa.invalid>');
    for (const name of ['users', 'messages', 'companies']) expect(envOf(synth, name)).not.toHaveProperty('MAIL_FROM');
  });

  it('takes the sender from context `mailFrom`, and refuses one that is no address', () => {
    // Act
    const custom = synthesize({ bundle: false, context: { mailFrom: 'Acme Suporte <suporte@acme.com.br>' } });
    // Assess
    expect(envOf(custom, 'auth').MAIL_FROM).toBe('Acme Suporte <suporte@acme.com.br>');
    expect(sesGrants(custom)[0]?.statement.Resource).toEqual([identityArn('acme.com.br'), identityArn('suporte@acme.com.br')]);
    expect(() => stackPropsFromContext(new App({ context: { mailFrom: 'Acme <not an address>' } }))).toThrow(/not an e-mail address/);
    // Without mailFrom, a web domain gives its no-reply address
    expect(defaultMailFrom('app.acme.com')).toBe('Conversa <no-reply@app.acme.com>');
  });
});
