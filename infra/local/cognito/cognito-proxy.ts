/**
 * The Cognito endpoint of the local stack: a small proxy in front of cognito-local that fills the
 * gaps measured in TOOLCHAIN.md, so the product code and Amplify talk to it exactly as to AWS:
 * - `GetTokensFromRefreshToken` (Amplify 6.22's refresh) -> InitiateAuth REFRESH_TOKEN_AUTH.
 * - Revoked refresh tokens (RevokeToken, GlobalSignOut, AdminUserGlobalSignOut) are refused with
 *   NotAuthorizedException, as are access tokens issued before a global sign-out.
 * - A wrong password is NotAuthorizedException, not cognito-local's InvalidPasswordException.
 * - The app client's writable attributes (infra/lib/client-attributes.ts) are enforced on
 *   UpdateUserAttributes / DeleteUserAttributes: cognito-local lets a user rewrite its own
 *   custom:companyId, Cognito refuses it with NotAuthorizedException.
 * - Tokens carry `origin_jti`, and a refresh keeps the sign-in's `origin_jti` and `auth_time`, as
 *   Cognito's do (cognito-local mints neither): the single-session check relies on them. The proxy
 *   re-signs the tokens with cognito-local's own key (shipped in its package), so the JWKS verifies.
 * - Cognito's lockout after failed sign-ins: from the fifth wrong password in a row a user is locked
 *   for 1 s, doubling with each further failure up to 15 minutes, and every attempt meanwhile is
 *   NotAuthorizedException "Password attempts exceeded" (the right password too). cognito-local has
 *   none, so local brute force against the pool would go unchecked.
 * - The pool's version 2 pre token generation trigger (functions/src/declarations/cognito-triggers.ts),
 *   which cognito-local cannot run (it sends version 1 events and changes only ID tokens): the proxy
 *   sends Cognito's V2 event to the local Lambda endpoint on every sign-in and refresh and applies
 *   the answer's claims and scopes to both tokens, as Cognito does.
 * - The self-service operations that take an access token (ChangePassword, GetUser,
 *   UpdateUserAttributes, GlobalSignOut...) check it as Cognito does: a valid signature, not expired,
 *   and the `aws.cognito.signin.user.admin` scope, else NotAuthorizedException. cognito-local only
 *   decodes the token (it would change a password for a forged or scope-less token).
 * - The app client's auth flows (infra/lib/client-attributes.ts): a password sign-in only through
 *   the API's AdminInitiateAuth; InitiateAuth with a password or SRP is InvalidParameterException
 *   "... flow not enabled for this client", as Cognito answers. cognito-local accepts every flow.
 * - The pool's account recovery (infra/lib/account-recovery.ts, `admin_only`): ForgotPassword and
 *   ConfirmForgotPassword are refused as Cognito refuses them (account-recovery.ts here); cognito-local
 *   has no such setting and would issue and take a code of its own.
 * - CORS for the browser (Amplify calls Cognito straight from the page).
 */
import { createPublicKey, createSign, createVerify, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { CLIENT_EXPLICIT_AUTH_FLOWS, CLIENT_WRITE_ATTRIBUTES } from '../../lib/client-attributes.ts';
import { accountRecoveryRefusal } from './account-recovery.ts';

export interface CognitoProxy {
  url: string;
  close(): Promise<void>;
}

interface RevocationState {
  /** Tokens revoked one by one (RevokeToken, or named by a global sign-out). */
  revoked: string[];
  /** Per cognito username: epoch seconds of the last global sign-out; older tokens are dead. */
  signedOutAt: Record<string, number>;
  /** Refresh and access tokens seen leaving through this proxy, per username, so a global sign-out can name them. */
  issued: Record<string, string[]>;
  /** Per refresh token: the sign-in it came from, which its refreshed tokens keep (`origin_jti`, `auth_time`). */
  sessions: Record<string, SignInSession>;
}

interface SignInSession {
  origin: string;
  authTime: number;
}

type Json = Record<string, unknown>;

const AMZ_JSON = 'application/x-amz-json-1.1';
const SERVICE = 'AWSCognitoIdentityProviderService';

export async function startCognitoProxy(opts: {
  port: number;
  upstream: string;
  stateFile?: string;
  log: (line: string) => void;
  /** The pool's version 2 pre token generation trigger, on the local Lambda Invoke endpoint. */
  preTokenGeneration?: { lambdaEndpoint: string; functionName: string; userPoolId: string };
}): Promise<CognitoProxy> {
  const state = loadState(opts.stateFile);
  const revoked = new Set(state.revoked);
  const save = () => {
    if (!opts.stateFile) return;
    const now = Date.now() / 1000;
    // Expired tokens are dead anyway; keeping them would only grow the file.
    const alive = (token: string) => (claims(token)?.exp ?? 0) > now;
    for (const [user, tokens] of Object.entries(state.issued)) state.issued[user] = tokens.filter(alive);
    for (const token of Object.keys(state.sessions)) if (!alive(token)) delete state.sessions[token];
    state.revoked = [...revoked].filter(alive);
    writeFileSync(opts.stateFile, JSON.stringify(state));
  };

  /** A refresh or access token: revoked one by one, or issued before its user's global sign-out. */
  const isRevoked = (token: string): boolean => {
    if (revoked.has(token)) return true;
    const c = claims(token);
    const cutoff = c?.username ? state.signedOutAt[c.username] : undefined;
    // Strictly older: a sign-in in the same second as the sign-out is the new session, not the old one.
    return cutoff !== undefined && (c?.iat ?? 0) < cutoff;
  };

  const signOutUser = (username: string) => {
    state.signedOutAt[username] = Math.floor(Date.now() / 1000);
    for (const token of state.issued[username] ?? []) revoked.add(token);
    state.issued[username] = [];
    save();
  };

  const upstream = async (target: string, body: Json): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${opts.upstream}/`, {
      method: 'POST',
      headers: { 'content-type': AMZ_JSON, 'x-amz-target': `${SERVICE}.${target}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  };

  /** Remembers the tokens that leave through this proxy, so a global sign-out can revoke each of them exactly. */
  const track = (result: unknown) => {
    const tokens = (result as { AuthenticationResult?: { RefreshToken?: string; AccessToken?: string } } | undefined)?.AuthenticationResult;
    for (const token of [tokens?.RefreshToken, tokens?.AccessToken]) {
      const username = token ? claims(token)?.username : undefined;
      if (!token || !username) continue;
      state.issued[username] = [...(state.issued[username] ?? []), token];
    }
    save();
  };

  /**
   * Runs the pool's version 2 pre token generation trigger as Cognito does before it hands out tokens,
   * and applies its answer (claims and scopes) to the ID and access tokens.
   */
  const customize = async (
    tokens: { IdToken: string; AccessToken?: string },
    extra: Json,
    source: 'TokenGeneration_Authentication' | 'TokenGeneration_RefreshTokens',
    clientId: unknown,
  ): Promise<{ IdToken: string; AccessToken?: string }> => {
    const id = { ...payloadOf(tokens.IdToken), ...extra };
    const access = tokens.AccessToken ? { ...payloadOf(tokens.AccessToken), ...extra } : undefined;
    const trigger = opts.preTokenGeneration;
    if (!trigger) {
      return {
        IdToken: resign(tokens.IdToken, id),
        ...(tokens.AccessToken && access ? { AccessToken: resign(tokens.AccessToken, access) } : {}),
      };
    }
    const userAttributes = Object.fromEntries(
      Object.entries(id)
        .filter(([name]) => name === 'sub' || name === 'email' || name === 'email_verified' || name.startsWith('custom:'))
        .map(([name, value]) => [name, String(value)]),
    );
    const event = {
      version: '2',
      triggerSource: source,
      region: 'us-east-1',
      userPoolId: trigger.userPoolId,
      userName: String(id['cognito:username'] ?? ''),
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: String(clientId ?? id.aud ?? '') },
      request: {
        userAttributes,
        groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [], preferredRole: null },
        scopes: String(access?.scope ?? '')
          .split(' ')
          .filter(Boolean),
      },
      response: { claimsAndScopeOverrideDetails: null },
    };
    const res = await fetch(`${trigger.lambdaEndpoint}/2015-03-31/functions/${encodeURIComponent(trigger.functionName)}/invocations`, {
      method: 'POST',
      body: JSON.stringify(event),
    });
    const answer = (await res.json().catch(() => undefined)) as
      | { response?: { claimsAndScopeOverrideDetails?: Overrides | null } }
      | undefined;
    if (!res.ok || res.headers.get('x-amz-function-error') || !answer)
      throw new TriggerFailed('PreTokenGeneration failed with error Unhandled.');
    const overrides = answer.response?.claimsAndScopeOverrideDetails ?? {};
    const idClaims = overridden(id, overrides.idTokenGeneration);
    const customized: { IdToken: string; AccessToken?: string } = { IdToken: resign(tokens.IdToken, idClaims) };
    if (tokens.AccessToken && access) {
      const accessClaims = overridden(access, overrides.accessTokenGeneration);
      const suppress = new Set(overrides.accessTokenGeneration?.scopesToSuppress ?? []);
      const scopes = [...String(access.scope ?? '').split(' '), ...(overrides.accessTokenGeneration?.scopesToAdd ?? [])].filter(
        (scope, index, all) => scope && !suppress.has(scope) && all.indexOf(scope) === index,
      );
      // Cognito leaves the claim out when no scope is left.
      if (scopes.length) accessClaims.scope = scopes.join(' ');
      else delete accessClaims.scope;
      customized.AccessToken = resign(tokens.AccessToken, accessClaims);
    }
    return customized;
  };

  /**
   * Stamps the tokens of a sign-in (or of a refresh, with its refresh token) the way Cognito does:
   * every token of one sign-in shares its `origin_jti` and `auth_time`; then the pool's pre token
   * generation trigger has its say.
   */
  const stamp = async (result: Json, refreshedWith: string | undefined, clientId: unknown): Promise<Json> => {
    const tokens = result.AuthenticationResult as { IdToken?: string; AccessToken?: string; RefreshToken?: string } | undefined;
    if (!tokens?.IdToken) return result;
    const known = refreshedWith ? state.sessions[refreshedWith] : undefined;
    const session = known ?? { origin: randomUUID(), authTime: claims(tokens.IdToken)?.iat ?? Math.floor(Date.now() / 1000) };
    const customized = await customize(
      { IdToken: tokens.IdToken, ...(tokens.AccessToken ? { AccessToken: tokens.AccessToken } : {}) },
      { origin_jti: session.origin, auth_time: session.authTime },
      refreshedWith ? 'TokenGeneration_RefreshTokens' : 'TokenGeneration_Authentication',
      clientId,
    );
    const stamped = { ...tokens, ...customized };
    const refreshToken = tokens.RefreshToken ?? refreshedWith;
    if (refreshToken) state.sessions[refreshToken] = session;
    return { ...result, AuthenticationResult: stamped };
  };

  /**
   * Cognito's checks on an access token presented to a self-service operation, which cognito-local
   * skips: its signature, its expiry, and the self-service scope (which our pre token generation
   * trigger removes, so ChangePassword and the like are refused with every token the pool issues).
   */
  const selfServiceRefusal = (token: string): { status: number; body: Json } | undefined => {
    const [header, payload, signature] = token.split('.');
    const signed =
      header &&
      payload &&
      signature &&
      createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(createPublicKey(cognitoLocalKey()), signature, 'base64url');
    if (!signed) return notAuthorized('Invalid Access Token');
    const body = payloadOf(token);
    if (body.token_use !== 'access') return notAuthorized('Invalid Access Token');
    if (typeof body.exp !== 'number' || body.exp <= Date.now() / 1000) return notAuthorized('Access Token has expired');
    if (
      !String(body.scope ?? '')
        .split(' ')
        .includes(SELF_SERVICE_SCOPE)
    )
      return notAuthorized('Access Token does not have required scopes');
    return undefined;
  };

  /** Whether the app client takes this AuthFlow (refresh is always on; ADMIN_NO_SRP_AUTH is ADMIN_USER_PASSWORD_AUTH's old name). */
  const flowEnabled = (flow: string): boolean => {
    if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') return true;
    const named = flow === 'ADMIN_NO_SRP_AUTH' ? 'ADMIN_USER_PASSWORD_AUTH' : flow;
    return (CLIENT_EXPLICIT_AUTH_FLOWS as readonly string[]).includes(`ALLOW_${named}`);
  };

  /** Failed password sign-ins per username (lower-cased), for Cognito's lockout. In memory, as a lockout needs no restart-proofing. */
  const failures = new Map<string, { count: number; lockedUntil: number }>();
  const passwordUser = (flow: string, params: Json): string | undefined =>
    ['USER_PASSWORD_AUTH', 'ADMIN_USER_PASSWORD_AUTH', 'ADMIN_NO_SRP_AUTH'].includes(flow) && typeof params.USERNAME === 'string'
      ? params.USERNAME.trim().toLowerCase()
      : undefined;

  const handle = async (target: string, body: Json): Promise<{ status: number; body: Json }> => {
    const accessToken = typeof body.AccessToken === 'string' ? body.AccessToken : undefined;
    if (accessToken && target !== 'RevokeToken') {
      if (isRevoked(accessToken)) return notAuthorized('Access Token has been revoked');
    }
    if (accessToken && SELF_SERVICE_OPERATIONS.has(target)) {
      const refusal = selfServiceRefusal(accessToken);
      if (refusal) return refusal;
    }
    const recoveryRefused = accountRecoveryRefusal(target);
    if (recoveryRefused) return recoveryRefused;
    switch (target) {
      case 'GetTokensFromRefreshToken': {
        const refreshToken = String(body.RefreshToken ?? '');
        if (isRevoked(refreshToken)) return notAuthorized('Refresh Token has been revoked');
        const out = await upstream('InitiateAuth', {
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: body.ClientId,
          AuthParameters: { REFRESH_TOKEN: refreshToken },
          ClientMetadata: body.ClientMetadata,
        });
        if (out.status !== 200) return out;
        const refreshed = await stamp(out.body, refreshToken, body.ClientId);
        track(refreshed);
        const result = (refreshed.AuthenticationResult ?? {}) as Json;
        const exp = claims(String(result.IdToken ?? ''))?.exp;
        return {
          status: 200,
          body: {
            AuthenticationResult: {
              AccessToken: result.AccessToken,
              IdToken: result.IdToken,
              TokenType: 'Bearer',
              ExpiresIn: exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : 3600,
            },
          },
        };
      }
      case 'InitiateAuth':
      case 'AdminInitiateAuth': {
        const params = (body.AuthParameters ?? {}) as Json;
        const flow = String(body.AuthFlow ?? '');
        if (!flowEnabled(flow)) return invalidParameter(`${flow} flow not enabled for this client`);
        if ((flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') && isRevoked(String(params.REFRESH_TOKEN ?? ''))) {
          return notAuthorized('Refresh Token has been revoked');
        }
        const username = passwordUser(flow, params);
        const failed = username ? failures.get(username) : undefined;
        if (failed && failed.lockedUntil > Date.now()) return notAuthorized('Password attempts exceeded');
        const out = await upstream(target, body);
        const wrongPassword = out.body.__type === 'InvalidPasswordException' || out.body.__type === 'NotAuthorizedException';
        if (username && wrongPassword) {
          const count = (failed?.count ?? 0) + 1;
          const lockMs = count >= LOCKOUT_AFTER_FAILURES ? Math.min(1000 * 2 ** (count - LOCKOUT_AFTER_FAILURES), LOCKOUT_MAX_MS) : 0;
          failures.set(username, { count, lockedUntil: Date.now() + lockMs });
        }
        if (out.body.__type === 'InvalidPasswordException') return notAuthorized('Incorrect username or password.');
        if (out.status !== 200) return out;
        if (username) failures.delete(username);
        const refreshedWith = flow.startsWith('REFRESH_TOKEN') ? String(params.REFRESH_TOKEN ?? '') : undefined;
        const stamped = await stamp(out.body, refreshedWith, body.ClientId);
        track(stamped);
        return { status: out.status, body: stamped };
      }
      case 'RespondToAuthChallenge': {
        const out = await upstream(target, body);
        if (out.status !== 200) return out;
        const stamped = await stamp(out.body, undefined, body.ClientId);
        track(stamped);
        return { status: out.status, body: stamped };
      }
      case 'UpdateUserAttributes':
      case 'DeleteUserAttributes': {
        // The user's own calls (access token) may touch only the client's writable attributes.
        const names =
          target === 'UpdateUserAttributes'
            ? ((body.UserAttributes ?? []) as { Name?: unknown }[]).map((attribute) => String(attribute?.Name ?? ''))
            : ((body.UserAttributeNames ?? []) as unknown[]).map(String);
        const writable: readonly string[] = CLIENT_WRITE_ATTRIBUTES;
        if (names.some((name) => !writable.includes(name))) return notAuthorized('A client attempted to write unauthorized attribute');
        return upstream(target, body);
      }
      case 'RevokeToken': {
        const token = String(body.Token ?? '');
        revoked.add(token);
        save();
        await upstream(target, body);
        // Like AWS: revoking an already revoked token succeeds.
        return { status: 200, body: {} };
      }
      case 'GlobalSignOut': {
        const username = accessToken ? claims(accessToken)?.username : undefined;
        if (!username) return notAuthorized('Invalid Access Token');
        signOutUser(username);
        return { status: 200, body: {} };
      }
      case 'AdminUserGlobalSignOut': {
        // The caller may name the user by email; revocation is keyed by cognito-local's username.
        const user = await upstream('AdminGetUser', { UserPoolId: body.UserPoolId, Username: body.Username });
        if (user.status !== 200) return user;
        signOutUser(String(user.body.Username));
        return { status: 200, body: {} };
      }
      default:
        return upstream(target, body);
    }
  };

  const server = createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      opts.log(`[cognito-proxy] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) send(res, 500, { __type: 'InternalErrorException', message: 'cognito proxy failed' });
    });
  });

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    cors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const raw = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '').split('.')[1];
    if (req.method !== 'POST' || !target) {
      // JWKS, openid-configuration, health: pass through untouched.
      const out = await fetch(`${opts.upstream}${req.url ?? '/'}`, {
        method: req.method,
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: raw.length && req.method !== 'GET' ? new Uint8Array(raw) : undefined,
      });
      res.writeHead(out.status, { 'content-type': out.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await out.arrayBuffer()));
      return;
    }
    let body: Json;
    try {
      body = raw.length ? (JSON.parse(raw.toString('utf8')) as Json) : {};
    } catch {
      send(res, 400, { __type: 'SerializationException', message: 'Invalid JSON' });
      return;
    }
    const out = await handle(target, body).catch((error: unknown) => {
      // Cognito's answer when a trigger fails: no tokens.
      if (error instanceof TriggerFailed) return { status: 400, body: { __type: 'UserLambdaValidationException', message: error.message } };
      throw error;
    });
    send(res, out.status, out.body);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined),
  };
}

/** The scope that authorises Cognito's self-service operations (the pre token generation trigger takes it out). */
const SELF_SERVICE_SCOPE = 'aws.cognito.signin.user.admin';

/** Cognito's operations authorised by the user's own access token, each needing SELF_SERVICE_SCOPE. */
const SELF_SERVICE_OPERATIONS = new Set([
  'AssociateSoftwareToken',
  'ChangePassword',
  'CompleteWebAuthnRegistration',
  'ConfirmDevice',
  'DeleteUser',
  'DeleteUserAttributes',
  'DeleteWebAuthnCredential',
  'ForgetDevice',
  'GetDevice',
  'GetUser',
  'GetUserAttributeVerificationCode',
  'GlobalSignOut',
  'ListDevices',
  'ListWebAuthnCredentials',
  'SetUserMFAPreference',
  'SetUserSettings',
  'StartWebAuthnRegistration',
  'UpdateDeviceStatus',
  'UpdateUserAttributes',
  'VerifySoftwareToken',
  'VerifyUserAttribute',
]);

/** What a version 2 pre token generation trigger may answer, per token. */
interface TokenOverrides {
  claimsToAddOrOverride?: Record<string, unknown>;
  claimsToSuppress?: string[];
  scopesToAdd?: string[];
  scopesToSuppress?: string[];
}

interface Overrides {
  idTokenGeneration?: TokenOverrides;
  accessTokenGeneration?: TokenOverrides;
}

class TriggerFailed extends Error {}

/** Claims a trigger may neither add, change nor remove (Cognito ignores those). */
const RESERVED_CLAIMS = new Set([
  'acr',
  'amr',
  'aud',
  'at_hash',
  'auth_time',
  'azp',
  'client_id',
  'cognito:username',
  'event_id',
  'exp',
  'iat',
  'identities',
  'iss',
  'jti',
  'nbf',
  'nonce',
  'origin_jti',
  'scope',
  'sub',
  'token_use',
  'username',
]);

function overridden(claimsOf: Json, overrides: TokenOverrides | undefined): Json {
  const out: Json = { ...claimsOf };
  for (const [name, value] of Object.entries(overrides?.claimsToAddOrOverride ?? {})) if (!RESERVED_CLAIMS.has(name)) out[name] = value;
  for (const name of overrides?.claimsToSuppress ?? []) if (!RESERVED_CLAIMS.has(name)) delete out[name];
  return out;
}

function payloadOf(token: string): Json {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Json;
  } catch {
    return {};
  }
}

/** Cognito locks a user out from the fifth failed sign-in in a row, 1 s doubling up to 15 minutes. */
const LOCKOUT_AFTER_FAILURES = 5;
const LOCKOUT_MAX_MS = 15 * 60 * 1000;

function notAuthorized(message: string) {
  return { status: 400, body: { __type: 'NotAuthorizedException', message } };
}

function invalidParameter(message: string) {
  return { status: 400, body: { __type: 'InvalidParameterException', message } };
}

function send(res: ServerResponse, status: number, body: Json) {
  const headers: Record<string, string> = { 'content-type': AMZ_JSON };
  if (typeof body.__type === 'string') {
    headers['x-amzn-errortype'] = body.__type;
    headers['x-amzn-errormessage'] = String(body.message ?? '');
  }
  res.writeHead(status, headers).end(JSON.stringify(body));
}

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-expose-headers', 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date');
  res.setHeader('access-control-max-age', '600');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Unverified claims: cognito-local checks signatures itself; we only need who and when. */
function claims(token: string): { username?: string; iat?: number; exp?: number } | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Json;
    const username = payload['cognito:username'] ?? payload.username;
    return {
      username: typeof username === 'string' ? username : undefined,
      iat: typeof payload.iat === 'number' ? payload.iat : undefined,
      exp: typeof payload.exp === 'number' ? payload.exp : undefined,
    };
  } catch {
    return undefined;
  }
}

function loadState(file: string | undefined): RevocationState {
  const empty = (): RevocationState => ({ revoked: [], signedOutAt: {}, issued: {}, sessions: {} });
  if (file && existsSync(file)) {
    try {
      return { ...empty(), ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<RevocationState>) };
    } catch {
      // A corrupt state file only loses revocations of local test sessions.
    }
  }
  return empty();
}

let signingKey: string | undefined;

/** cognito-local's private key (it ships in its package): what its JWKS publishes the public half of. */
function cognitoLocalKey(): string {
  if (!signingKey) {
    const root = dirname(createRequire(import.meta.url).resolve('cognito-local/package.json'));
    signingKey = (JSON.parse(readFileSync(join(root, 'lib', 'keys', 'cognitoLocal.private.json'), 'utf8')) as { pem: string }).pem;
  }
  return signingKey;
}

/** The same token with exactly these claims, signed again with the key it was signed with. */
function resign(token: string, claimsOf: Json): string {
  const [header, payload] = token.split('.');
  if (!header || !payload) return token;
  const body = Buffer.from(JSON.stringify(claimsOf)).toString('base64url');
  const signature = createSign('RSA-SHA256').update(`${header}.${body}`).sign(cognitoLocalKey(), 'base64url');
  return `${header}.${body}.${signature}`;
}
