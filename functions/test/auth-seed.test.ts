import { AdminGetUserCommand, AdminInitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPlatform } from '../../infra/ops/seed.ts';
import { verifyIdToken } from '../src/commons/jwt.ts';
import { getCompany } from '../src/storage/companies/companies.ts';
import { getPlan } from '../src/storage/plans/plans.ts';
import { listSettings } from '../src/storage/settings.ts';
import { getUser } from '../src/storage/users/users.ts';
import { type CognitoLocal, startCognitoLocal } from './support/cognito-local.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
let cognito: CognitoLocal;
beforeAll(async () => {
  [ddb, cognito] = await Promise.all([startDynamoDbLocal(), startCognitoLocal()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([ddb?.stop(), cognito?.stop()]);
});

describe('seedPlatform', () => {
  it('creates plan 1, company 1 and a super admin who can sign in, then does nothing the second time', async () => {
    // Act
    const first = await seedPlatform({ adminEmail: 'Admin@Conversa.local', adminPassword: 'Admin1234' });
    const second = await seedPlatform({ adminEmail: 'admin@conversa.local', adminPassword: 'Admin1234' });

    // Assess
    expect(first).toEqual({ created: true, companyId: 1, userId: 1 });
    expect(second).toEqual({ created: false, companyId: 1, userId: 1 });
    expect(await getPlan(1)).toMatchObject({ name: 'Plano 1', useCampaigns: true, useKanban: true });
    expect(await getCompany(1)).toMatchObject({ id: 1, planId: 1, status: true, dueDate: null });
    expect((await getCompany(1))?.schedules).toHaveLength(7);
    expect(await listSettings(1)).toContainEqual({ key: 'userRating', value: 'disabled' });
    const user = await getUser(1, 1);
    expect(user).toMatchObject({ email: 'admin@conversa.local', profile: 'admin', super: true });

    const auth = await cognito.client.send(
      new AdminInitiateAuthCommand({
        UserPoolId: cognito.userPoolId,
        ClientId: cognito.clientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'admin@conversa.local', PASSWORD: 'Admin1234' },
      }),
    );
    const identity = await verifyIdToken(auth.AuthenticationResult?.IdToken);
    expect(identity).toMatchObject({ companyId: 1, userId: 1, email: 'admin@conversa.local', sub: user?.cognitoSub });
    expect(identity.issuedAt).toBeGreaterThan(0);
  });

  it('adopts a Cognito user left by an interrupted run', async () => {
    // Prepare: a Cognito user exists but no user record (the run died in between)
    const { createCognitoUser } = await import('#adapters/cognito-users');
    await createCognitoUser({ email: 'half@conversa.local', password: 'Old12345', companyId: 99, userId: 99 });

    // Act
    const result = await seedPlatform({ adminEmail: 'half@conversa.local', adminPassword: 'New12345' });

    // Assess: the record is made and Cognito points at it with the new password
    expect(result.created).toBe(true);
    const out = await cognito.client.send(new AdminGetUserCommand({ UserPoolId: cognito.userPoolId, Username: 'half@conversa.local' }));
    expect(out.UserAttributes).toContainEqual({ Name: 'custom:userId', Value: String(result.userId) });
    const auth = await cognito.client.send(
      new AdminInitiateAuthCommand({
        UserPoolId: cognito.userPoolId,
        ClientId: cognito.clientId,
        AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'half@conversa.local', PASSWORD: 'New12345' },
      }),
    );
    expect(auth.AuthenticationResult?.IdToken).toBeTruthy();
  });

  it('sets a new password on the seeded admin only when asked (a start that lost .data/local.json)', async () => {
    // Prepare: the admin exists with a password nobody has any more
    await seedPlatform({ adminEmail: 'lost@conversa.local', adminPassword: 'Lost1234' });
    const signIn = (password: string) =>
      cognito.client.send(
        new AdminInitiateAuthCommand({
          UserPoolId: cognito.userPoolId,
          ClientId: cognito.clientId,
          AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: 'lost@conversa.local', PASSWORD: password },
        }),
      );

    // Act: a plain re-run keeps the password; a run that replaces it sets the printed one
    await seedPlatform({ adminEmail: 'lost@conversa.local', adminPassword: 'Other123' });
    await expect(signIn('Other123')).rejects.toThrow();
    const result = await seedPlatform({ adminEmail: 'lost@conversa.local', adminPassword: 'Fresh123', resetPassword: true });

    // Assess
    expect(result.created).toBe(false);
    expect((await signIn('Fresh123')).AuthenticationResult?.IdToken).toBeTruthy();
    await expect(signIn('Lost1234')).rejects.toThrow();
  });
});
