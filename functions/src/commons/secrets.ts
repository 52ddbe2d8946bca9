/**
 * Tenant secrets at rest (AI API keys, integration credentials): AES-256-GCM with one key per region.
 *
 * The key: locally, env SECRETS_KEY (32 bytes, base64), generated once by the local stack and kept with
 * its data so a restart still opens old secrets. In AWS, env SECRETS_KEY_ARN names a Secrets Manager
 * secret that CDK generates (a random string); the AES key is its SHA-256. Read once per container.
 * The SDK is imported only then, so Lambdas that never open a secret do not load it (bundle budget).
 *
 * Sealed text is versioned, "v1:<iv>:<tag>:<data>" in base64url, so a later key rotation can add "v2".
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that cannot be opened: tampered with, truncated, or sealed under another key. */
export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`Sealed secret cannot be opened: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

let awsKey: Promise<Buffer> | undefined;

async function secretsKey(): Promise<Buffer> {
  const local = process.env.SECRETS_KEY;
  if (local) {
    const key = Buffer.from(local, 'base64');
    if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes in base64');
    return key;
  }
  const arn = process.env.SECRETS_KEY_ARN;
  if (!arn) throw new Error('Missing environment variable SECRETS_KEY_ARN (or SECRETS_KEY locally)');
  awsKey ??= fetchAwsKey(arn).catch((error: unknown) => {
    // A throttled or failed read must not poison the container: the next call tries again.
    awsKey = undefined;
    throw error;
  });
  return awsKey;
}

async function fetchAwsKey(arn: string): Promise<Buffer> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({ region: process.env.AWS_REGION });
  const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!out.SecretString) throw new Error(`Secret ${arn} has no string value`);
  return createHash('sha256').update(out.SecretString, 'utf8').digest();
}

export async function sealSecret(plain: string): Promise<string> {
  const key = await secretsKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  // The version is authenticated too: a "v1" body relabelled as another version fails to open.
  cipher.setAAD(Buffer.from(VERSION));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join(':');
}

export async function openSecret(sealed: string): Promise<string> {
  const parts = sealed.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretUnreadableError('unknown format');
  const [, ivText, tagText, dataText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretUnreadableError('bad iv or tag');
  const key = await secretsKey();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(VERSION));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError('authentication failed (tampered or another key)');
  }
}

/**
 * An HMAC-SHA256 of `value` under a key derived from the region's key for this `purpose` (hex): what a
 * short secret (a 6-digit reset code) is stored as, so a copy of the table alone cannot try the
 * million codes offline. Another purpose, or another region's key, gives another digest.
 */
export async function keyedDigest(purpose: string, value: string): Promise<string> {
  const subkey = createHmac('sha256', await secretsKey())
    .update(`conversa:${purpose}`)
    .digest();
  return createHmac('sha256', subkey).update(value, 'utf8').digest('hex');
}

/** Shortest secret whose last four characters may be shown: below it, four would be too much of it. */
const HINT_MIN_LENGTH = 16;

/**
 * What the browser sees instead of a secret: a conventional public prefix such as "sk-" and the last
 * four characters ("sk-…a1b2"); only "…" for short values. The "…" never occurs in a real key, which is
 * how a PUT recognises the hint sent back unchanged.
 */
export const secretHint = (plain: string): string => {
  if (!plain) return '';
  if (plain.length < HINT_MIN_LENGTH) return '…';
  const prefix = /^[a-z]{2,4}-/.exec(plain)?.[0] ?? '';
  return `${prefix}…${plain.slice(-4)}`;
};

/** True when a client sent back the hint it was shown (or any masked value) rather than a new secret. */
export const isSecretHint = (value: string): boolean => value.includes('…');
