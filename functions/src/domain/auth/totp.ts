/**
 * TOTP (RFC 6238, 30 s steps, six digits, SHA-1: what every authenticator app reads from a QR code)
 * through otplib, and the recovery codes. TOTP lives in our auth layer rather than Cognito's software
 * token MFA because the local stand-in (cognito-local) does not speak it, and local and deployed must
 * behave alike. otplib (and the hashes under it, ~15 KB) loads on the first TOTP call: the auth Lambda
 * signs everyone in, and only users with MFA ever reach it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODES } from '#contracts/mfa';

const otplib = () => import('otplib');

const ISSUER = 'Conversa';
const PERIOD_SECONDS = 30;

/** A new secret and the otpauth:// address its QR code shows for `account`. */
export async function newTotp(account: string): Promise<{ secret: string; otpauthUrl: string }> {
  const { generateSecret, generateURI } = await otplib();
  const secret = generateSecret();
  return { secret, otpauthUrl: generateURI({ issuer: ISSUER, label: account, secret }) };
}

/**
 * The time step a six-digit `code` belongs to, when it is the code of the current step, the one
 * before or the one after (clock drift), and later than `afterStep` (a used step never passes again).
 */
export async function totpStep(
  secret: string,
  code: string,
  afterStep: number | null | undefined,
  nowMs = Date.now(),
): Promise<number | null> {
  const { verify } = await otplib();
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep != null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** Base32 letters (no 0/1/8/9 to misread): ten of them, about 50 bits, shown as "abcde-fghij". */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const letters = [...randomBytes(10)].map((byte) => ALPHABET[byte % 32]).join('');
    return `${letters.slice(0, 5)}-${letters.slice(5)}`;
  });
}

/** What is stored of a recovery code: its hash, bound to the user (a copied hash fits nobody else). */
export const recoveryCodeHash = (companyId: number, userId: number, normalisedCode: string): string =>
  createHash('sha256').update(`${companyId}:${userId}:${normalisedCode}`).digest('base64url');
