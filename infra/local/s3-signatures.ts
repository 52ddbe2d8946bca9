/**
 * What S3 enforces on a presigned URL and s3rver does not (it skips SigV4 checks entirely): the
 * signature over the method, key, query and every signed header. Our grants sign the content type
 * and length of an upload (functions/src/adapters/media-bucket-s3.ts) and the response type and
 * disposition of a download, so without this a browser could PUT an SVG or a 1 GB file with a grant
 * for a 4-byte PDF, locally only. Checked here as AWS does, with the stand-in's one key pair, before
 * s3rver sees the request. Requests signed in an Authorization header come from our own code with
 * the stack's credentials and go on as before; a request with no signature at all is refused as the
 * private bucket refuses it (except a browser's CORS preflight).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The stand-in's access keys and their secrets (s3.ts registers `local`; s3rver's own is S3RVER). */
const SECRETS: Record<string, string> = { local: 'local', S3RVER: 'S3RVER' };

export interface SignedRequest {
  method: string;
  /** Path and query exactly as received (`/bucket/key?X-Amz-...`). */
  url: string;
  headers: IncomingHttpHeaders;
}

/** Why S3 would refuse this request (`undefined`: it would take it). */
export function presignedRefusal(request: SignedRequest, now = new Date()): { code: string; message: string } | undefined {
  if (request.method === 'OPTIONS') return undefined;
  const [path = '/', rawQuery = ''] = request.url.split('?', 2) as [string, string?];
  const query = parseQuery(rawQuery);
  const get = (name: string) => query.find(([key]) => key === name)?.[1];
  if (!get('X-Amz-Signature')) {
    if (request.headers.authorization) return undefined;
    return { code: 'AccessDenied', message: 'Access Denied' };
  }
  const [accessKey = '', ...scopeParts] = (get('X-Amz-Credential') ?? '').split('/');
  const secret = SECRETS[accessKey];
  if (!secret) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const amzDate = get('X-Amz-Date') ?? '';
  const signedAt = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const expires = Number(get('X-Amz-Expires'));
  if (Number.isNaN(signedAt) || !Number.isFinite(expires) || now.getTime() > signedAt + expires * 1000) {
    return { code: 'AccessDenied', message: 'Request has expired' };
  }
  const signedHeaders = (get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  const canonical = [
    request.method,
    path
      .split('/')
      .map((segment) => rfc3986(safeDecode(segment)))
      .join('/'),
    query
      .filter(([key]) => key !== 'X-Amz-Signature')
      .map(([key, value]) => [rfc3986(key), rfc3986(value)] as const)
      .sort(([a, x], [b, y]) => (a === b ? compare(x, y) : compare(a, b)))
      .map(([key, value]) => `${key}=${value}`)
      .join('&'),
    ...signedHeaders.map((name) => `${name}:${headerValue(request.headers[name])}`),
    '',
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = scopeParts.join('/');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = scopeParts.reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  const expected = Buffer.from(hmac(key, toSign).toString('hex'));
  const given = Buffer.from(get('X-Amz-Signature') ?? '');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return {
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  return undefined;
}

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function parseQuery(raw: string): [string, string][] {
  return raw
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return at === -1 ? [safeDecode(pair), ''] : [safeDecode(pair.slice(0, at)), safeDecode(pair.slice(at + 1))];
    });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** SigV4's encoding: encodeURIComponent plus the four characters it leaves alone. */
const rfc3986 = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const headerValue = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
