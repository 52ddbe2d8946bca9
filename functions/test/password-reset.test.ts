/**
 * Our own password-reset code (issue 21; domain/auth/password-reset.ts), over DynamoDB Local with the
 * mail and the password as fake ports: only a keyed digest is stored, every try is counted, five burn
 * the code, it expires, it works once, a new request replaces it, and an unknown address is answered
 * alike and mailed nothing. The routes over SES's stand-in and Cognito: auth.test.ts, auth-throttle.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { codeIn } from '../../infra/local/mail-sink.ts';
import { ValidationError } from '../src/commons/errors.ts';
import { keyedDigest } from '../src/commons/secrets.ts';
import { messages } from '../src/contracts/common.ts';
import { RESET_CODE_ATTEMPTS } from '../src/domain/auth/attempt-limits.ts';
import {
  type OutgoingMail,
  type PasswordResetPorts,
  RESET_CODE_DIGITS,
  RESET_CODE_LIFETIME_SECONDS,
  requestPasswordReset,
  resetPassword,
} from '../src/domain/auth/password-reset.ts';
import { preferredLanguage, resetCodeMail } from '../src/domain/auth/reset-mail.ts';
import { endUserSessions } from '../src/domain/auth/session.ts';
import { listAuditEntries } from '../src/storage/audit/entries.ts';
import { db, table } from '../src/storage/db.ts';
import { getResetCode } from '../src/storage/users/reset-codes.ts';
import { createUser, newUserId, type UserRecord } from '../src/storage/users/users.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { userFixture } from './support/fixtures.ts';
import { ensureCompany } from './support/tenants.ts';

// Ending sessions (Cognito, sockets) is session.ts' own business, tried end to end in tests/integration.
vi.mock('../src/domain/auth/session.ts', () => ({ endUserSessions: vi.fn(async () => undefined) }));

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
  await ensureCompany({ id: 3 });
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

let mails: OutgoingMail[];
let passwords: { email: string; password: string }[];
let refusePassword: boolean;
const ports: PasswordResetPorts = {
  sendMail: async (mail) => {
    mails.push(mail);
  },
  setPassword: async (email, password) => {
    if (refusePassword) throw new ValidationError('newPassword', messages.weakPassword);
    passwords.push({ email, password });
  },
};
beforeEach(() => {
  mails = [];
  passwords = [];
  refusePassword = false;
  vi.mocked(endUserSessions).mockClear();
});

let octet = 1;
/** A client address of its own per call site, so the per-address limit never mixes tests. */
const address = () => ({ sourceIp: `203.0.113.${octet++}` });

async function newUser(name = 'Ana Souza'): Promise<UserRecord> {
  const id = await newUserId(3);
  return createUser(userFixture({ id, companyId: 3, name, email: `reset-${id}-${Date.now().toString(36)}@example.com` }));
}

/** Step one as the route runs it, without the 1 s floor; answers the code that was mailed. */
async function requestCode(user: UserRecord, language: 'pt' | 'en' | 'es' = 'pt'): Promise<string> {
  const before = mails.length;
  await requestPasswordReset({ email: user.email, language }, ports, 0);
  expect(mails).toHaveLength(before + 1);
  const code = codeIn(mails.at(-1)?.text ?? '');
  if (!code) throw new Error('no code in the mail');
  return code;
}

const reset = (user: UserRecord, token: string, client = address(), nowMs = Date.now()) =>
  resetPassword({ email: user.email, token, newPassword: 'Changed123' }, client, ports, nowMs);

const invalidCode = { code: 'ERR_INVALID_RESET_CODE', field: 'token' };
const BURNT = 'Too many wrong codes: request a new one';

describe('step one: the code', () => {
  it(`mails a crypto-random ${RESET_CODE_DIGITS}-digit code and stores only its keyed digest, with its tries, for an hour`, async () => {
    // Prepare
    const user = await newUser();
    const before = Math.floor(Date.now() / 1000);

    // Act
    const code = await requestCode(user);

    // Assess: the mail, in Portuguese by default
    expect(code).toMatch(new RegExp(`^\\d{${RESET_CODE_DIGITS}}$`));
    expect(mails[0]).toMatchObject({ to: user.email, subject: 'Seu código para redefinir a senha do Conversa' });
    expect(mails[0]?.text).toContain('Olá, Ana Souza!');
    expect(mails[0]?.html).toContain(code);
    // The stored item: a digest keyed with the region's key, neither the code nor a plain hash of it
    const stored = await getResetCode(user.email, before);
    expect(stored).toMatchObject({ tries: 0, companyId: 3, userId: user.id });
    expect(stored?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect([sha(code), sha(`${user.email}\n${code}`), sha(`${user.email}${code}`)]).not.toContain(stored?.codeHash);
    expect(stored?.codeHash).toBe(await keyedDigest('password-reset-code', `${user.email}\n${code}`));
    expect(stored?.expiresAt).toBeGreaterThanOrEqual(before + RESET_CODE_LIFETIME_SECONDS);
    expect(stored?.expiresAt).toBeLessThanOrEqual(before + RESET_CODE_LIFETIME_SECONDS + 5);
    const table_ = await db().send(new ScanCommand({ TableName: table() }));
    expect(JSON.stringify(table_.Items)).not.toContain(code);
    const codeItems = (table_.Items ?? []).filter((item) => String(item.pk).includes('#RESET_CODE#'));
    expect(codeItems.length).toBeGreaterThan(0);
    expect(JSON.stringify(codeItems)).not.toContain(user.email);
  });

  it('answers an unknown address as a known one and mails it nothing', async () => {
    // Act
    const answer = await requestPasswordReset({ email: 'nobody-at-all@example.com', language: 'pt' }, ports, 0);
    // Assess
    expect(answer).toBeUndefined();
    expect(mails).toEqual([]);
    await expect(
      resetPassword({ email: 'nobody-at-all@example.com', token: '12345678', newPassword: 'Changed123' }, address(), ports),
    ).rejects.toMatchObject({ ...invalidCode, extra: { message: 'Invalid or expired code' } });
  });

  it('a new request replaces the code: the earlier one no longer works, the new one does', async () => {
    // Prepare
    const user = await newUser();
    const first = await requestCode(user);
    await expect(reset(user, first === '00000000' ? '00000001' : '00000000')).rejects.toMatchObject(invalidCode);

    // Act
    const second = await requestCode(user);

    // Assess: a fresh budget, and only the latest code passes
    expect((await getResetCode(user.email, Math.floor(Date.now() / 1000)))?.tries).toBe(0);
    if (first !== second) await expect(reset(user, first)).rejects.toMatchObject(invalidCode);
    await reset(user, second);
    expect(passwords).toEqual([{ email: user.email, password: 'Changed123' }]);
  });

  it('writes the mail in English or Spanish when the request prefers them', async () => {
    const user = await newUser('Bob <b>');
    await requestCode(user, 'en');
    await requestCode(user, 'es');
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Your code to reset your Conversa password',
      'Su código para restablecer la contraseña de Conversa',
    ]);
    expect(mails[0]?.html).toContain('Bob &lt;b&gt;');
    expect(mails[0]?.html).not.toContain('<b>');
    expect(preferredLanguage('en-US,en;q=0.9,pt;q=0.8')).toBe('en');
    expect(preferredLanguage('fr-FR,es;q=0.5,en;q=0.7')).toBe('en');
    expect(preferredLanguage('es-AR')).toBe('es');
    expect(preferredLanguage('de, fr;q=0.9')).toBe('pt');
    expect(preferredLanguage(undefined)).toBe('pt');
    expect(resetCodeMail({ language: 'es', name: '', email: 'x@y.z', code: '1', minutes: 60 }).text).toContain('¡Hola, x@y.z!');
  });
});

describe('step two: the reset', () => {
  it('the right code sets the password, ends every session, is audited, and works once', async () => {
    // Prepare
    const user = await newUser();
    const code = await requestCode(user);

    // Act
    await reset(user, code);

    // Assess
    expect(passwords).toEqual([{ email: user.email, password: 'Changed123' }]);
    expect(endUserSessions).toHaveBeenCalledWith(3, user.id);
    const trail = (await listAuditEntries({ companyId: 3, targetType: 'user' }, 100)).filter((entry) => entry.targetId === String(user.id));
    expect(trail.map((entry) => entry.action)).toEqual(['auth.passwordReset', 'auth.passwordResetRequested']);
    expect(JSON.stringify(trail)).not.toContain('Changed123');
    expect(JSON.stringify(trail)).not.toContain(code);
    // Single use
    await expect(reset(user, code)).rejects.toMatchObject(invalidCode);
    expect(passwords).toHaveLength(1);
  });

  it('counts every wrong code on the code itself', async () => {
    const user = await newUser();
    const code = await requestCode(user);
    const wrong = code === '11111111' ? '22222222' : '11111111';
    await expect(reset(user, wrong)).rejects.toMatchObject({ ...invalidCode, extra: { message: 'Invalid or expired code' } });
    await expect(reset(user, 'not-a-code')).rejects.toMatchObject(invalidCode);
    expect((await getResetCode(user.email, Math.floor(Date.now() / 1000)))?.tries).toBe(2);
    expect(passwords).toEqual([]);
  });

  it(`${RESET_CODE_ATTEMPTS} wrong codes burn it: the right one then fails until a new code is requested`, async () => {
    // Prepare
    const user = await newUser();
    const code = await requestCode(user);
    const wrong = code === '33333333' ? '44444444' : '33333333';
    const client = address();

    // Act: each wrong try from another address, so only the code's own counter can stop them
    for (let i = 0; i < RESET_CODE_ATTEMPTS; i++) await expect(reset(user, wrong, address())).rejects.toMatchObject(invalidCode);

    // Assess
    await expect(reset(user, code, client)).rejects.toMatchObject({ ...invalidCode, extra: { message: BURNT } });
    expect(passwords).toEqual([]);
    await reset(user, await requestCode(user), client);
    expect(passwords).toHaveLength(1);
  });

  it('a burst of wrong guesses cannot slip past the count together', async () => {
    const user = await newUser();
    const code = await requestCode(user);
    const guesses = Array.from({ length: 12 }, (_, i) => String(i).padStart(8, '9')).filter((guess) => guess !== code);
    const results = await Promise.allSettled(guesses.map((guess) => reset(user, guess)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    await expect(reset(user, code)).rejects.toMatchObject({ ...invalidCode, extra: { message: BURNT } });
  });

  it('expires after an hour', async () => {
    const user = await newUser();
    const code = await requestCode(user);
    await expect(reset(user, code, address(), Date.now() + (RESET_CODE_LIFETIME_SECONDS + 1) * 1000)).rejects.toMatchObject(invalidCode);
    expect(passwords).toEqual([]);
  });

  it('two requests with the right code at once: one resets, the other is refused', async () => {
    const user = await newUser();
    const code = await requestCode(user);
    const results = await Promise.allSettled([reset(user, code), reset(user, code), reset(user, code)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(passwords).toHaveLength(1);
  });

  it('a password the pool refuses is the weak-password error, and the code stays usable', async () => {
    const user = await newUser();
    const code = await requestCode(user);
    refusePassword = true;
    await expect(reset(user, code)).rejects.toMatchObject({ code: 'ERR_VALIDATION', field: 'newPassword' });
    refusePassword = false;
    await reset(user, code);
    expect(passwords).toHaveLength(1);
  });
});
