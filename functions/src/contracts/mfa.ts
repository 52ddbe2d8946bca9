/**
 * The second factor (issue 21 part 2): TOTP from any authenticator app, plus ten one-time recovery
 * codes. Routes: POST /auth/mfa/setup, POST /auth/mfa/verify, DELETE /auth/mfa, POST
 * /auth/mfa/challenge, DELETE /users/{id}/mfa.
 */
import * as z from 'zod';
import { messages } from './common.ts';

/** An authenticator's code: six digits (spaces, as apps show "123 456", are ignored). */
export const TOTP_CODE = /^\d{6}$/;
/** A recovery code as shown ("abcde-fghij"); case, spaces and the dash are ignored. */
export const RECOVERY_CODE = /^[a-z2-7]{10}$/;
export const RECOVERY_CODES = 10;

/** What a user typed, normalised: digits for TOTP, ten lowercase base32 letters for a recovery code. */
export const normaliseMfaCode = (value: string): string => value.replace(/[\s-]/g, '').toLowerCase();

const codeSchema = z
  .string({ error: messages.required })
  .max(32, 'Invalid code')
  .transform(normaliseMfaCode)
  .refine((code) => TOTP_CODE.test(code) || RECOVERY_CODE.test(code), 'Invalid code');

/** Enrolment takes an authenticator's code only: a recovery code does not exist yet. */
export const mfaVerifySchema = z.object({
  code: z
    .string({ error: messages.required })
    .max(32, 'Invalid code')
    .transform(normaliseMfaCode)
    .refine((code) => TOTP_CODE.test(code), 'Invalid code'),
});

export const mfaDisableSchema = z.object({ code: codeSchema });

/** Challenge ids are 32 random bytes in base64url. */
export const mfaChallengeSchema = z.object({
  challenge: z.string({ error: messages.required }).regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid or expired challenge'),
  code: codeSchema,
});

export const mfaResetQuerySchema = z.object({ companyId: z.coerce.number().int().positive().optional() });

/** POST /auth/mfa/setup: the new secret, and the otpauth:// URL the page shows as a QR code. */
export interface MfaSetupResponse {
  secret: string;
  otpauthUrl: string;
}

/** POST /auth/mfa/verify: the second factor is on; the recovery codes are shown this once. */
export interface MfaVerifyResponse {
  recoveryCodes: string[];
}

/** POST /auth/login or /auth/session of a user with the second factor on: no session until the code. */
export interface MfaChallengeResponse {
  mfaRequired: true;
  challenge: string;
}

/** Seconds a challenge lives, and wrong codes that burn it. */
export const MFA_CHALLENGE_SECONDS = 5 * 60;
export const MFA_CHALLENGE_TRIES = 5;
