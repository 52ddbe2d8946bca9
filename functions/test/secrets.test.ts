/**
 * Sealed tenant secrets: a round trip, and every way a stored value can go wrong (flipped bytes,
 * another key, a relabelled version, garbage) is refused rather than opened to something else.
 * The hint the browser sees never carries the secret.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSecretHint, openSecret, SecretUnreadableError, sealSecret, secretHint } from '../src/commons/secrets.ts';

const previous = { key: process.env.SECRETS_KEY, arn: process.env.SECRETS_KEY_ARN };
beforeEach(() => {
  process.env.SECRETS_KEY = randomBytes(32).toString('base64');
  delete process.env.SECRETS_KEY_ARN;
});
afterEach(() => {
  for (const [name, value] of [
    ['SECRETS_KEY', previous.key],
    ['SECRETS_KEY_ARN', previous.arn],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Flips one bit of the decoded field `index` (1 iv, 2 tag, 3 data) and re-encodes it. */
function flip(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[index] as string, 'base64url');
  bytes[0] = (bytes[0] as number) ^ 1;
  parts[index] = bytes.toString('base64url');
  return parts.join(':');
}

describe('sealSecret / openSecret', () => {
  it('round-trips, including unicode and the empty string, with a fresh IV each time', async () => {
    for (const plain of ['sk-proj-abcdefghijklmnopqrstuvwxyz0123', 'çãõ 🤖 {"private_key":"x"}', '']) {
      const sealed = await sealSecret(plain);
      expect(sealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]*$/);
      if (plain) expect(sealed).not.toContain(plain);
      expect(await openSecret(sealed)).toBe(plain);
    }
    const a = await sealSecret('same');
    const b = await sealSecret('same');
    expect(a).not.toBe(b);
  });

  it('refuses a tampered iv, tag or ciphertext, a relabelled version and garbage', async () => {
    const sealed = await sealSecret('sk-live-0123456789abcdef');
    for (const index of [1, 2, 3]) await expect(openSecret(flip(sealed, index))).rejects.toBeInstanceOf(SecretUnreadableError);
    await expect(openSecret(sealed.replace(/^v1:/, 'v2:'))).rejects.toBeInstanceOf(SecretUnreadableError);
    for (const junk of ['', 'v1', 'v1:::', 'plain-text-key', `${sealed}:extra`, 'v1:AAAA:AAAA:AAAA']) {
      await expect(openSecret(junk)).rejects.toBeInstanceOf(SecretUnreadableError);
    }
  });

  it('refuses a value sealed under another key', async () => {
    const sealed = await sealSecret('sk-live-0123456789abcdef');
    process.env.SECRETS_KEY = randomBytes(32).toString('base64');
    await expect(openSecret(sealed)).rejects.toBeInstanceOf(SecretUnreadableError);
  });

  it('fails loudly without a key rather than sealing under none', async () => {
    delete process.env.SECRETS_KEY;
    await expect(sealSecret('x')).rejects.toThrow(/SECRETS_KEY_ARN/);
    process.env.SECRETS_KEY = Buffer.from('short').toString('base64');
    await expect(sealSecret('x')).rejects.toThrow(/32 bytes/);
  });
});

describe('secretHint', () => {
  it('shows a public prefix and the last four of a long key', () => {
    expect(secretHint('sk-proj-abcdefghijklmnopqrstuvwxyza1b2')).toBe('sk-…a1b2');
    expect(secretHint('AIzaSyD0123456789abcdefgh')).toBe('…efgh');
    expect(secretHint('')).toBe('');
  });

  it('never contains the secret, whatever its length, and is recognisable as a hint', () => {
    for (let length = 1; length <= 80; length++) {
      const plain = randomBytes(length).toString('base64url').slice(0, length);
      const hint = secretHint(plain);
      expect(hint.includes(plain)).toBe(false);
      expect(hint.length).toBeLessThan(Math.max(plain.length, 2));
      expect(isSecretHint(hint)).toBe(true);
      expect(isSecretHint(plain)).toBe(false);
    }
  });
});
