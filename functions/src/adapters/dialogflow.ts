/**
 * Dialogflow ES (API v2) over REST: POST <base>/v2/projects/<project>/agent/sessions/<session>:detectIntent
 * with `{queryInput: {text: {text, languageCode}}}` and a Bearer access token. The token comes from
 * the tenant's service-account JSON by OAuth 2's JWT bearer grant (RFC 7523, as Google documents for
 * service accounts): an RS256-signed assertion {iss: client_email, scope, aud: token_uri, iat, exp}
 * POSTed to the JSON's token_uri as `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=...`.
 * Tokens live an hour; each is reused until a minute before it expires.
 *
 * The replies are the agent's text responses (queryResult.fulfillmentMessages[].text.text for the
 * default platform), else fulfillmentText; an intent marked "end of conversation" reports it in
 * diagnosticInfo.end_conversation (and intent.endInteraction).
 */
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { env } from '#commons/env';
import { ProviderError } from './provider-error.ts';
import { isRecord, MAX_BOT_REPLIES, parseJsonObject, providerFetch, providerUrl, withoutTrailingSlash } from './provider-http.ts';

export interface DialogflowAnswer {
  replies: string[];
  endConversation: boolean;
}

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const DIALOGFLOW_SCOPE = 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/dialogflow';
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Google's assertions may ask for at most an hour. */
const ASSERTION_SECONDS = 3600;
/** A token this close to its expiry is not used: a detectIntent must not start with one that dies on the way. */
const EXPIRY_MARGIN_MS = 60_000;
const MAX_CACHED_TOKENS = 500;

interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

interface CachedToken {
  token: Promise<{ accessToken: string; expiresAt: number }>;
}

/**
 * Per service account, keyed by its email AND a hash of its key and token_uri: a tenant pasting
 * another's client_email with a key of its own must not be handed the other's token.
 */
const tokens = new Map<string, CachedToken>();

export async function detectIntent(o: {
  credentialsJson: string;
  projectName: string;
  sessionId: string;
  text: string;
  language: string;
  timeoutMs?: number;
}): Promise<DialogflowAnswer> {
  const account = parseServiceAccount(o.credentialsJson);
  const project = o.projectName.trim();
  if (!project) throw new ProviderError('dialogflow', 'invalid', 'no project name');
  const started = Date.now();
  const accessToken = await tokenFor(account, o.timeoutMs);
  const remaining = o.timeoutMs === undefined ? undefined : Math.max(1, o.timeoutMs - (Date.now() - started));
  const url = `${withoutTrailingSlash(env.dialogflowBaseUrl)}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(o.sessionId)}:detectIntent`;
  let answer: Awaited<ReturnType<typeof providerFetch>>;
  try {
    answer = await providerFetch('dialogflow', url, {
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ queryInput: { text: { text: o.text, languageCode: o.language || 'pt-BR' } } }),
      timeoutMs: remaining,
    });
  } catch (error) {
    // A revoked or rotated key: the next turn asks for a new token instead of reusing a dead one.
    if (error instanceof ProviderError && error.status === 401) tokens.delete(cacheKey(account));
    throw error;
  }
  return answerOf(parseJsonObject('dialogflow', answer.text));
}

function answerOf(body: Record<string, unknown>): DialogflowAnswer {
  const result = body.queryResult;
  if (!isRecord(result)) throw new ProviderError('dialogflow', 'invalid', 'the answer has no queryResult');
  const replies: string[] = [];
  if (Array.isArray(result.fulfillmentMessages)) {
    for (const message of result.fulfillmentMessages) {
      if (!isRecord(message) || !isRecord(message.text) || !Array.isArray(message.text.text)) continue;
      // Messages for Facebook, Slack... are that platform's; ours is the default one.
      if (message.platform !== undefined && message.platform !== 'PLATFORM_UNSPECIFIED') continue;
      for (const line of message.text.text) if (typeof line === 'string' && line.trim()) replies.push(line.trim());
    }
  }
  if (replies.length === 0 && typeof result.fulfillmentText === 'string' && result.fulfillmentText.trim())
    replies.push(result.fulfillmentText.trim());
  const diagnostic = isRecord(result.diagnosticInfo) ? result.diagnosticInfo : {};
  const intent = isRecord(result.intent) ? result.intent : {};
  return {
    replies: replies.slice(0, MAX_BOT_REPLIES),
    endConversation: diagnostic.end_conversation === true || intent.endInteraction === true,
  };
}

function parseServiceAccount(json: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ProviderError('dialogflow', 'invalid', 'the credentials are not JSON');
  }
  if (!isRecord(parsed) || typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string')
    throw new ProviderError('dialogflow', 'invalid', 'the credentials are not a service-account key (client_email, private_key)');
  const tokenUri = typeof parsed.token_uri === 'string' && parsed.token_uri ? parsed.token_uri : GOOGLE_TOKEN_URI;
  providerUrl('dialogflow', tokenUri);
  return {
    clientEmail: parsed.client_email,
    privateKey: parsed.private_key,
    privateKeyId: typeof parsed.private_key_id === 'string' ? parsed.private_key_id : undefined,
    tokenUri,
  };
}

const cacheKey = (account: ServiceAccount): string =>
  `${account.clientEmail}\n${createHash('sha256').update(`${account.tokenUri}\n${account.privateKey}`).digest('base64url')}`;

async function tokenFor(account: ServiceAccount, timeoutMs: number | undefined): Promise<string> {
  const key = cacheKey(account);
  const cached = tokens.get(key);
  if (cached) {
    const token = await cached.token.catch(() => undefined);
    if (token && token.expiresAt - EXPIRY_MARGIN_MS > Date.now()) return token.accessToken;
    if (tokens.get(key) === cached) tokens.delete(key);
  }
  // One request in flight per account: turns of several tickets at once share it.
  const entry: CachedToken = { token: requestToken(account, timeoutMs) };
  if (tokens.size >= MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value as string);
  tokens.set(key, entry);
  try {
    return (await entry.token).accessToken;
  } catch (error) {
    if (tokens.get(key) === entry) tokens.delete(key);
    throw error;
  }
}

async function requestToken(account: ServiceAccount, timeoutMs: number | undefined): Promise<{ accessToken: string; expiresAt: number }> {
  const assertion = signedAssertion(account);
  const answer = await providerFetch('dialogflow', account.tokenUri, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }),
    timeoutMs,
    tenantUrl: true,
  });
  const body = parseJsonObject('dialogflow', answer.text);
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new ProviderError('dialogflow', 'invalid', 'the token answer has no access_token');
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : ASSERTION_SECONDS;
  return { accessToken: body.access_token, expiresAt: Date.now() + expiresIn * 1000 };
}

function signedAssertion(account: ServiceAccount): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = { iss: account.clientEmail, scope: DIALOGFLOW_SCOPE, aud: account.tokenUri, iat: now, exp: now + ASSERTION_SECONDS };
  const unsigned = `${base64url(header)}.${base64url(claims)}`;
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(account.privateKey);
  } catch {
    throw new ProviderError('dialogflow', 'invalid', 'the private_key of the credentials cannot be read');
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ProviderError('dialogflow', 'invalid', 'the private_key of the credentials is not an RSA key');
  return `${unsigned}.${sign('sha256', Buffer.from(unsigned), key).toString('base64url')}`;
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Tests: forget every cached token. */
export function clearDialogflowTokens(): void {
  tokens.clear();
}
