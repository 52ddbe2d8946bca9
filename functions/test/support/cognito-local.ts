/**
 * cognito-local on a free port in a temp folder, with a user pool and app client shaped like the
 * real one (email username, custom:companyId / custom:userId, the API's password sign-in + refresh).
 * Password-reset codes are ours, not Cognito's: a test reads them from the mail sink (mail-sink.ts).
 *
 * Known gaps (TOOLCHAIN.md): no RevokeToken / GlobalSignOut / GetTokensFromRefreshToken, a wrong
 * password gives InvalidPasswordException, REFRESH_TOKEN_AUTH issues a fresh auth_time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { fakeAwsCredentials } from './dynamodb-local.ts';
import { freePort, type Spawned, spawnProcess } from './processes.ts';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

export interface CognitoLocal {
  endpoint: string;
  userPoolId: string;
  clientId: string;
  issuer: string;
  client: CognitoIdentityProviderClient;
  stop: () => Promise<void>;
}

export async function createPoolAndClient(client: CognitoIdentityProviderClient): Promise<{ userPoolId: string; clientId: string }> {
  const pool = await client.send(
    new CreateUserPoolCommand({
      PoolName: 'conversa-test',
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      Policies: {
        PasswordPolicy: { MinimumLength: 8, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: false },
      },
      Schema: [
        { Name: 'companyId', AttributeDataType: 'String', Mutable: true },
        { Name: 'userId', AttributeDataType: 'String', Mutable: true },
      ],
    }),
  );
  const userPoolId = pool.UserPool?.Id;
  if (!userPoolId) throw new Error('cognito-local created no pool');
  const app = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: 'web',
      // As the deployed client (infra/lib/client-attributes.ts); cognito-local does not enforce them.
      ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    }),
  );
  const clientId = app.UserPoolClient?.ClientId;
  if (!clientId) throw new Error('cognito-local created no app client');
  return { userPoolId, clientId };
}

/**
 * Starts cognito-local on a port that was free a moment ago. Another process (a stack, a second test
 * run) may take that port first: then our child dies on EADDRINUSE while its /health answers from the
 * other server, and the pool would be created there (a full run saw CreateUserPool fail with
 * UnknownError). Ready means our child is alive and answers 200; a child that died is retried on a
 * new port.
 */
async function spawnCognitoLocal(cwd: string): Promise<{ proc: Spawned; endpoint: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proc = spawnProcess(process.execPath, [join(repoRoot, 'node_modules/cognito-local/lib/bin/start.js')], {
      cwd,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    });
    const alive = () => proc.child.exitCode === null && proc.child.signalCode === null;
    const endpoint = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (alive() && Date.now() < deadline) {
      const ok = await fetch(`${endpoint}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok && alive()) return { proc, endpoint };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const died = !alive();
    await proc.stop();
    if (died && attempt < 3) continue;
    throw new Error(`cognito-local ${died ? 'exited' : 'did not answer within 60 s'}\n${proc.output()}`);
  }
}

export async function startCognitoLocal(options: { setEnv?: boolean } = {}): Promise<CognitoLocal> {
  fakeAwsCredentials();
  const cwd = mkdtempSync(join(tmpdir(), 'cognito-local-'));
  const { proc, endpoint } = await spawnCognitoLocal(cwd);
  const client = new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { userPoolId, clientId } = await createPoolAndClient(client);
  const issuer = `${endpoint}/${userPoolId}`;
  if (options.setEnv ?? true) {
    process.env.COGNITO_ENDPOINT = endpoint;
    process.env.USER_POOL_ID = userPoolId;
    process.env.USER_POOL_CLIENT_ID = clientId;
    process.env.JWT_ISSUER = issuer;
  }
  return {
    endpoint,
    userPoolId,
    clientId,
    issuer,
    client,
    stop: async () => {
      client.destroy();
      await proc.stop();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
