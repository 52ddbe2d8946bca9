/**
 * cognito-local as a child process (it keeps its state as JSON under `.cognito/` in its cwd), the
 * user pool and client the product expects, and the confirmation codes it "emails" (it prints them),
 * captured so tests and the log can read a password-reset code.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  /** Latest confirmation code cognito-local delivered to this address (lower-cased), and when (epoch ms). */
  codes: Map<string, { code: string; at: number }>;
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
  const codes = new Map<string, { code: string; at: number }>();
  let destination: string | undefined;
  const child = spawnChild({
    name: 'cognito',
    command: process.execPath,
    args: [startScript],
    cwd: opts.dir,
    // HOST fixes both the bind address and the issuer, so JWT_ISSUER is predictable.
    env: { ...process.env, PORT: String(opts.port), HOST: '127.0.0.1', NO_COLOR: '1', DEBUG: '' },
    log: opts.log,
    onLine: (line) => {
      // The delivery is a box: "│ Destination: ann@x.com │" then "│ Code: 123456 │".
      const field = /^[\s│|]*([A-Za-z ]+):\s+(\S+)\s*[│|]?\s*$/.exec(line.replace(/^.*?INFO.*?:\s*/, ''));
      if (field?.[1] === 'Destination') destination = field[2]?.toLowerCase();
      if (field?.[1] === 'Code' && destination && field[2]) {
        codes.set(destination, { code: field[2], at: Date.now() });
        opts.log(`[cognito] confirmation code for ${destination}: ${field[2]}`);
        destination = undefined;
      }
      return undefined;
    },
  });
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await waitFor('cognito-local', async () => (await fetch(`${url}/health`)).ok, { timeoutMs: 30_000, exited: child.exited });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { url, child, codes };
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

/**
 * The confirmation code cognito-local holds for this address, read from its user pool's file
 * (`.cognito/db/<pool id>.json`, written before it answers ForgotPassword or SignUp): its printed
 * "email" goes through a logging worker that, on a loaded machine, printed the code ~30 s after the
 * answer. `at` is when the user record last changed. Undefined while there is none, or while the
 * file is being rewritten.
 */
export function storedConfirmationCode(dir: string, userPoolId: string, email: string): { code: string; at: number } | undefined {
  let users: Record<string, { Attributes?: { Name: string; Value?: string }[]; ConfirmationCode?: string; UserLastModifiedDate?: string }>;
  try {
    users = JSON.parse(readFileSync(join(dir, '.cognito', 'db', `${userPoolId}.json`), 'utf8')).Users ?? {};
  } catch {
    return undefined;
  }
  const wanted = email.trim().toLowerCase();
  const user = Object.values(users).find((u) => u.Attributes?.some((a) => a.Name === 'email' && a.Value?.toLowerCase() === wanted));
  if (!user?.ConfirmationCode) return undefined;
  return { code: user.ConfirmationCode, at: Date.parse(user.UserLastModifiedDate ?? '') || 0 };
}
