/**
 * Auth and session routes (SPEC 7 "Auth and session"): parse, validate, call the use case.
 */
import { cognitoUsers } from '#adapters/cognito-lazy';
import { sendMail } from '#adapters/ses-mail';
import { env } from '#commons/env';
import { UnauthorizedError } from '#commons/errors';
import { claimSessionSchema, loginSchema, refreshSchema, resetPasswordParamsSchema } from '#contracts/auth';
import { emailSchema, idParamSchema } from '#contracts/common';
import { mfaChallengeSchema, mfaDisableSchema, mfaResetQuerySchema, mfaVerifySchema } from '#contracts/mfa';
import { signInIdOf } from '#contracts/session';
import {
  assertCompanyCanClaimWebSession,
  claimWebSession,
  completeMfaSignIn,
  login,
  logout,
  refreshSession,
} from '#domain/auth/auth-service';
import { disableMfa, mfaRequiredOf, resetUserMfa, setupMfa, verifyMfa } from '#domain/auth/mfa';
import { type PasswordResetPorts, requestPasswordReset, resetPassword } from '#domain/auth/password-reset';
import { preferredLanguage } from '#domain/auth/reset-mail';
import { sessionUser } from '#domain/auth/session-user';
import { assertCompanyUsable, bearerToken, loadIdentity, requireIdentity } from '#http/access';
import { clientInfo } from '#http/client-info';
import { httpHandler } from '#http/handler';
import { noContent } from '#http/result';
import { parseInput } from '#http/validate';

/** Our reset code goes out by SES; the new password is set by the admin call, as the pool's recovery is admin-only. */
const resetPorts: PasswordResetPorts = {
  sendMail,
  setPassword: async (email, password) => (await cognitoUsers()).setCognitoPassword(email, password, 'newPassword'),
};

export const handler = httpHandler('auth', {
  'POST /auth/login': async ({ body, event }) => login(parseInput(loginSchema, body), clientInfo(event)),

  'POST /auth/refresh_token': async ({ body, event }) => {
    const { refreshToken } = parseInput(refreshSchema, body);
    if (refreshToken) return refreshSession(refreshToken);
    // Clients holding only a (still valid) ID token get their user back without a refresh token.
    const raw = bearerToken(event);
    if (!raw) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const identity = await loadIdentity(raw);
    assertCompanyUsable(identity, false);
    return { token: raw, user: await sessionUser(identity.user, identity.company) };
  },

  'GET /auth/me': async (ctx) => {
    const identity = requireIdentity(ctx);
    // A session kept from before the due date passed: its admin comes back to pay, its plain user
    // is refused with the expiry message as a new sign-in is (402, SPEC 5), not let into a dead end.
    assertCompanyCanClaimWebSession(identity.user, identity.company);
    return sessionUser(identity.user, identity.company);
  },

  'DELETE /auth/logout': async (ctx) => {
    const identity = requireIdentity(ctx);
    await logout(identity.user, identity.token);
    return noContent();
  },

  'POST /auth/session': async (ctx) => {
    const { refreshToken } = parseInput(claimSessionSchema, ctx.body);
    return claimWebSession(requireIdentity(ctx), refreshToken);
  },

  'GET /auth/mfa': async (ctx) => {
    const { user } = requireIdentity(ctx);
    return { enabled: Boolean(user.mfaEnabled), required: await mfaRequiredOf(user) };
  },

  'POST /auth/mfa/setup': async (ctx) => setupMfa(requireIdentity(ctx).user),

  'POST /auth/mfa/verify': async (ctx) => {
    const identity = requireIdentity(ctx);
    const { code } = parseInput(mfaVerifySchema, ctx.body);
    return verifyMfa(identity.user, code, signInIdOf(identity.token));
  },

  'DELETE /auth/mfa': async (ctx) => {
    const { code } = parseInput(mfaDisableSchema, ctx.body);
    await disableMfa(requireIdentity(ctx).user, code);
    return noContent();
  },

  'POST /auth/mfa/challenge': async ({ body }) => completeMfaSignIn(parseInput(mfaChallengeSchema, body)),

  'DELETE /users/{id}/mfa': async (ctx) => {
    const identity = requireIdentity(ctx);
    const userId = parseInput(idParamSchema, ctx.params.id, 'id');
    const { companyId } = parseInput(mfaResetQuerySchema, ctx.query, 'query');
    await resetUserMfa(identity, { companyId: identity.super ? (companyId ?? identity.companyId) : identity.companyId, userId });
    return noContent();
  },

  'POST /forgetpassword/{email}': async ({ params, event }) => {
    const email = parseInput(emailSchema, params.email, 'email');
    await requestPasswordReset({ email, language: preferredLanguage(event.headers?.['accept-language']) }, resetPorts);
    return { sent: true };
  },

  'POST /resetpasswords/{email}/{token}/{newPassword}': async ({ params, event }) => {
    await resetPassword(parseInput(resetPasswordParamsSchema, params, 'params'), clientInfo(event), resetPorts);
    return { reset: true };
  },

  'GET /version': async () => ({ version: env.serverVersion }),
});
