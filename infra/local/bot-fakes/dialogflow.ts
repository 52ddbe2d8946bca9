/**
 * A fake Google token endpoint and Dialogflow ES v2 under /dialogflow.
 *   POST /dialogflow/token            OAuth 2 JWT bearer grant (form: grant_type, assertion), Google's
 *                                     answer and error shapes; the RS256 assertion is verified with the
 *                                     public key registered for its `iss` (400 invalid_grant otherwise)
 *   POST /dialogflow/v2/projects/<p>/agent/sessions/<s>:detectIntent
 *                                     `Dialogflow: <text>`; `tchau` also ends the conversation
 *                                     (diagnosticInfo.end_conversation, intent.endInteraction);
 *                                     `#varias` answers two text messages plus a Facebook-only one,
 *                                     `#so-texto` only fulfillmentText
 *   POST /dialogflow/service-accounts {client_email, public_key (PEM), project_id?} registers a key a
 *                                     test generated; without public_key the fake makes a key pair
 *                                     and answers a whole service-account JSON (also GET
 *                                     /dialogflow/credentials?project=<p>, for a person to paste)
 *   GET  /dialogflow/requests?clientEmail=<e>  the token requests and detectIntents, oldest first
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, randomUUID, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, json, parseJson, type RequestLog, readBody, scripted } from './http.ts';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_SECONDS = 3599;

export interface DialogflowRequest {
  kind: 'token' | 'detectIntent';
  clientEmail: string;
  at: string;
  project?: string;
  session?: string;
  text?: string;
  languageCode?: string;
}

interface Account {
  publicKey: KeyObject;
  projectId?: string;
}

const grantError = (error: string, description: string) => new HttpError(400, { error, error_description: description });
const googleError = (code: number, status: string, message: string) => new HttpError(code, { error: { code, message, status } });

export function dialogflowFake(log: RequestLog<DialogflowRequest>, timers: Set<NodeJS.Timeout>, baseUrl: () => string) {
  const accounts = new Map<string, Account>();
  const tokens = new Map<string, { clientEmail: string; expiresAt: number }>();

  function newCredentials(projectId: string): Record<string, string> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const clientEmail = `conversa-${randomBytes(4).toString('hex')}@${projectId}.iam.gserviceaccount.com`;
    accounts.set(clientEmail, { publicKey, projectId });
    return {
      type: 'service_account',
      project_id: projectId,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: String(Date.now()),
      auth_uri: `${baseUrl()}/dialogflow/auth`,
      token_uri: `${baseUrl()}/dialogflow/token`,
    };
  }

  function token(form: URLSearchParams): Record<string, unknown> {
    if (form.get('grant_type') !== JWT_BEARER_GRANT)
      throw grantError('unsupported_grant_type', `Invalid grant_type: ${form.get('grant_type') ?? ''}`);
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) throw grantError('invalid_request', 'Invalid JWT: not three segments.');
    const [header, claims] = parts.slice(0, 2).map((part) => {
      try {
        return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        throw grantError('invalid_request', 'Invalid JWT: unreadable segment.');
      }
    }) as [Record<string, unknown>, Record<string, unknown>];
    if (header.alg !== 'RS256') throw grantError('invalid_grant', 'Invalid JWT: only RS256 is accepted.');
    const account = typeof claims.iss === 'string' ? accounts.get(claims.iss) : undefined;
    if (!account) throw grantError('invalid_grant', 'Invalid grant: account not found');
    const signed = verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      account.publicKey,
      Buffer.from(parts[2] as string, 'base64url'),
    );
    if (!signed) throw grantError('invalid_grant', 'Invalid JWT Signature.');
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!(iat <= now + 60 && exp > now && exp - iat <= 3600))
      throw grantError('invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    if (typeof claims.aud !== 'string' || !claims.aud.endsWith('/dialogflow/token'))
      throw grantError('invalid_grant', 'Invalid JWT: bad audience.');
    const scopes = String(claims.scope ?? '').split(' ');
    if (!scopes.some((s) => s === 'https://www.googleapis.com/auth/cloud-platform' || s === 'https://www.googleapis.com/auth/dialogflow'))
      throw grantError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    const accessToken = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    tokens.set(accessToken, { clientEmail: claims.iss as string, expiresAt: Date.now() + TOKEN_SECONDS * 1000 });
    log.add({ kind: 'token', clientEmail: claims.iss as string, at: new Date().toISOString() });
    return { access_token: accessToken, expires_in: TOKEN_SECONDS, token_type: 'Bearer' };
  }

  function queryResult(text: string, languageCode: string, project: string): Record<string, unknown> {
    const ends = /\btchau\b/i.test(text);
    const reply = `Dialogflow: ${text}`;
    const intent = {
      name: `projects/${project}/agent/intents/${randomUUID()}`,
      displayName: ends ? 'Despedida' : 'Eco',
      ...(ends ? { endInteraction: true } : {}),
    };
    const base = { queryText: text, languageCode, parameters: {}, allRequiredParamsPresent: true, intent, intentDetectionConfidence: 1 };
    const diagnosticInfo = ends ? { diagnosticInfo: { end_conversation: true } } : {};
    if (text.includes('#so-texto')) return { ...base, fulfillmentText: reply, ...diagnosticInfo };
    const messages: Record<string, unknown>[] = [{ text: { text: [reply] } }];
    if (text.includes('#varias')) {
      messages.push(
        { platform: 'FACEBOOK', text: { text: ['Só no Facebook'] } },
        { text: { text: ['Segunda mensagem'] } },
        { payload: { kind: 'card' } },
      );
    }
    return { ...base, fulfillmentText: reply, fulfillmentMessages: messages, ...diagnosticInfo };
  }

  return async (req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> => {
    const path = url.pathname.replace(/^\/dialogflow/, '');
    if (req.method === 'GET' && path === '/requests') {
      const email = url.searchParams.get('clientEmail');
      return json(
        res,
        200,
        log.filter((entry) => !email || entry.clientEmail === email),
      );
    }
    if (req.method === 'GET' && path === '/credentials')
      return json(res, 200, newCredentials(url.searchParams.get('project') || 'conversa-local'));
    if (req.method === 'POST' && path === '/service-accounts') {
      const body = parseJson(await readBody(req), () => new HttpError(400, { error: 'invalid JSON' }));
      const projectId = typeof body.project_id === 'string' && body.project_id ? body.project_id : undefined;
      if (typeof body.public_key !== 'string') return json(res, 200, newCredentials(projectId ?? 'conversa-local'));
      if (typeof body.client_email !== 'string' || !body.client_email) throw new HttpError(400, { error: 'client_email is required' });
      let publicKey: KeyObject;
      try {
        publicKey = createPublicKey(body.public_key);
      } catch {
        throw new HttpError(400, { error: 'public_key is not a PEM public key' });
      }
      accounts.set(body.client_email, { publicKey, projectId });
      return json(res, 200, { client_email: body.client_email });
    }
    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams((await readBody(req)).toString('utf8'));
      return json(res, 200, token(form));
    }
    const detect = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(path);
    if (req.method !== 'POST' || !detect) throw googleError(404, 'NOT_FOUND', `Method not found: ${req.method} ${path}`);
    const project = decodeURIComponent(detect[1] as string);
    const session = decodeURIComponent(detect[2] as string);
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const granted = tokens.get(bearer);
    if (!granted || granted.expiresAt <= Date.now())
      throw googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    const account = accounts.get(granted.clientEmail);
    if (account?.projectId && account.projectId !== project)
      throw googleError(
        403,
        'PERMISSION_DENIED',
        `IAM permission 'dialogflow.sessions.detectIntent' on 'projects/${project}/agent' denied.`,
      );
    const body = parseJson(await readBody(req), () => googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    const input = (body.queryInput as { text?: { text?: unknown; languageCode?: unknown } } | undefined)?.text;
    if (typeof input?.text !== 'string' || !input.text || typeof input.languageCode !== 'string' || !input.languageCode)
      throw googleError(400, 'INVALID_ARGUMENT', 'Query input text and language code are required.');
    log.add({
      kind: 'detectIntent',
      clientEmail: granted.clientEmail,
      at: new Date().toISOString(),
      project,
      session,
      text: input.text,
      languageCode: input.languageCode,
    });
    if (await scripted(input.text, res, timers)) return;
    return json(res, 200, { responseId: randomUUID(), queryResult: queryResult(input.text, input.languageCode, project) });
  };
}
