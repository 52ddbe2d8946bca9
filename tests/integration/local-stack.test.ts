/**
 * The local stack itself: the gateway serves the route table with API Gateway's answers, the seeded
 * super admin signs in, the web server hands the app its endpoints.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Api, createApi } from '../support/api.ts';

let api: Api;

beforeAll(() => {
  api = createApi();
});

describe('local stack', () => {
  it('answers GET /version with the server version', async () => {
    const res = await api.call<{ version?: string }>('GET', '/version');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(inject('env').SERVER_VERSION);
  });

  it('signs in the seeded super admin through POST /auth/login with a token the API accepts', async () => {
    const admin = inject('admin');
    const session = await api.login(admin.email, admin.password);
    expect(session.token.split('.')).toHaveLength(3);
    expect(session.user.email).toBe(admin.email);
    const me = await api.call<{ email?: string; user?: { email: string } }>('GET', '/auth/me', { token: session.token });
    expect(me.status).toBe(200);
    expect(me.body.user?.email ?? me.body.email).toBe(admin.email);
  });

  it('refuses a wrong password like Cognito does, without a 500', async () => {
    const res = await api.call<{ error: string }>('POST', '/auth/login', {
      body: { email: inject('admin').email, password: 'Wrong-Password-1' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it('gives 404 ERR_ROUTE_NOT_FOUND as JSON for a path outside the route table', async () => {
    const res = await api.call<{ error: string }>('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ error: 'ERR_ROUTE_NOT_FOUND' });
  });

  it('gives 405 ERR_METHOD_NOT_ALLOWED for a known path with another method', async () => {
    const res = await api.call<{ error: string }>('PUT', '/version');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'ERR_METHOD_NOT_ALLOWED' });
  });

  it('answers a CORS preflight for the web app', async () => {
    const res = await fetch(`${inject('apiUrl')}/users`, {
      method: 'OPTIONS',
      headers: {
        origin: inject('webUrl'),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('lets the web app send Idempotency-Key and read the rate window, as the deployed API does', async () => {
    const web = new URL(inject('webUrl')).origin;
    const preflight = await fetch(`${inject('apiUrl')}/api/messages/send`, {
      method: 'OPTIONS',
      headers: {
        origin: web,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(web);
    expect(preflight.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
    );
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    const answer = await fetch(`${inject('apiUrl')}/version`, { headers: { origin: web } });
    expect(answer.headers.get('access-control-allow-origin')).toBe(web);
    expect(answer.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed']),
    );
  });

  it('gives another site no CORS headers, whatever the handler answered, so its browser refuses the call', async () => {
    const elsewhere = 'https://elsewhere.example';
    const preflight = await fetch(`${inject('apiUrl')}/users`, {
      method: 'OPTIONS',
      headers: { origin: elsewhere, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    const answer = await fetch(`${inject('apiUrl')}/version`, { headers: { origin: elsewhere } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a body over API Gateway 10 MB limit with 413', async () => {
    const res = await api.call<{ error: string }>('POST', '/auth/login', { body: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('serves /config.json with this stack endpoints for the web app', async () => {
    const res = await fetch(`${inject('webUrl')}/config.json`);
    expect(res.status).toBe(200);
    const config = (await res.json()) as Record<string, string>;
    const cognito = inject('cognito');
    expect(config).toEqual({
      apiUrl: inject('apiUrl'),
      wsUrl: inject('wsUrl'),
      region: inject('env').AWS_REGION,
      userPoolId: cognito.userPoolId,
      userPoolClientId: cognito.clientId,
      userPoolEndpoint: cognito.endpoint,
    });
  });

  it('hands the JWT issuer the handlers verify against: the iss of the pool tokens, with its JWKS', async () => {
    const env = inject('env');
    const admin = inject('admin');
    const { token } = await api.login(admin.email, admin.password);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss: string };
    expect(payload.iss).toBe(env.JWT_ISSUER);
    const jwks = (await (await fetch(`${env.JWT_ISSUER}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
  });
});
