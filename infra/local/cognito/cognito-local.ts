/**
 * cognito-local as a child process (it keeps its state as JSON under `.cognito/` in its cwd), and the
 * user pool and client the product expects. It mails no password-reset code: the pool's recovery is
 * admin-only (the proxy refuses ForgotPassword), and our API mails its own code (infra/local/mail-sink.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { CLIENT_EXPLICIT_AUTH_FLOWS } from '../../lib/client-attributes.ts';
import { type Child, spawnChild, waitFor } from '../child-process.ts';

export const POOL_NAME = 'conversa-local';
export const CLIENT_NAME = 'conversa-web';

export interface CognitoLocal {
  /** cognito-local's own URL: the tokens' issuer domain. */
  url: string;
  child: Child;
}

const require = createRequire(import.meta.url);

export async function startCognitoLocal(opts: {
  port: number;
  dir: string;
  log: (line: string) => void;
  /** The pool's Lambda triggers (operation -> function name) and the Lambda endpoint that runs them. */
  triggers?: { lambdaEndpoint: string; functions: Record<string, string> };
}): Promise<CognitoLocal> {
  mkdirSync(opts.dir, { recursive: true });
  if (opts.triggers) {
    // cognito-local reads its config from .cognito/config.json at start; the endpoint's port changes
    // per run, so it is written on every start (the pool and users live in other files there).
    mkdirSync(join(opts.dir, '.cognito'), { recursive: true });
    const config = {
      LambdaClient: {
        endpoint: opts.triggers.lambdaEndpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      },
      TriggerFunctions: opts.triggers.functions,
    };
    writeFileSync(join(opts.dir, '.cognito', 'config.json'), JSON.stringify(config, null, 2));
  }
  const startScript = join(dirname(require.resolve('cognito-local/package.json')), 'lib', 'bin', 'start.js');
  const child = spawnChild({
    name: 'cognito',
    command: process.execPath,
    args: [startScript],
    cwd: opts.dir,
    // HOST fixes both the bind address and the issuer, so JWT_ISSUER is predictable.
    env: { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', NO_COLOR: '1', DEBUG: '' },
    log: opts.log,
  });
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await waitFor('cognito-local', async () => (await fetch(`${url}/health`)).ok, { timeoutMs: 30_000, exited: child.exited });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { url, child };
}

export function cognitoAdminClient(endpoint: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/**
 * Finds the pool and client by name, creating them on the first start. cognito-local keeps them on
 * disk, so a restart finds the same ids (and users keep their passwords).
 */
export async function ensurePoolAndClient(endpoint: string): Promise<{ userPoolId: string; clientId: string }> {
  const client = cognitoAdminClient(endpoint);
  try {
    const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    let userPoolId = pools.UserPools?.find((pool) => pool.Name === POOL_NAME)?.Id;
    if (!userPoolId) {
      const created = await client.send(
        new CreateUserPoolCommand({
          PoolName: POOL_NAME,
          UsernameAttributes: ['email'],
          AutoVerifiedAttributes: ['email'],
          Policies: {
            PasswordPolicy: {
              MinimumLength: 8,
              RequireUppercase: true,
              RequireLowercase: true,
              RequireNumbers: true,
              RequireSymbols: false,
            },
          },
          Schema: [
            { Name: 'companyId', AttributeDataType: 'String', Mutable: true },
            { Name: 'userId', AttributeDataType: 'String', Mutable: true },
          ],
        }),
      );
      userPoolId = created.UserPool?.Id;
    }
    if (!userPoolId) throw new Error('cognito-local did not return a user pool id');
    const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    let clientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
    if (!clientId) {
      const created = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId: userPoolId,
          ClientName: CLIENT_NAME,
          ExplicitAuthFlows: [...CLIENT_EXPLICIT_AUTH_FLOWS],
        }),
      );
      clientId = created.UserPoolClient?.ClientId;
    }
    if (!clientId) throw new Error('cognito-local did not return a user pool client id');
    return { userPoolId, clientId };
  } finally {
    client.destroy();
  }
}
