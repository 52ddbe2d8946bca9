/**
 * Auth and session routes (SPEC 7 "Auth and session"): parse, validate, call the use case.
 */
import { env } from '#commons/env';
import { UnauthorizedError } from '#commons/errors';
import { claimSessionSchema, loginSchema, refreshSchema, resetPasswordParamsSchema } from '#contracts/auth';
import { emailSchema } from '#contracts/common';
import {
  assertCompanyCanClaimWebSession,
  claimWebSession,
  login,
  logout,
  refreshSession,
  requestPasswordReset,
  resetPassword,
} from '#domain/auth/auth-service';
import { sessionUser } from '#domain/auth/session-user';
import { assertCompanyUsable, bearerToken, loadIdentity, requireIdentity } from '#http/access';
import { clientInfo } from '#http/client-info';
import { httpHandler } from '#http/handler';
import { noContent } from '#http/result';
import { parseInput } from '#http/validate';

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

  'POST /forgetpassword/{email}': async ({ params }) => {
    await requestPasswordReset(parseInput(emailSchema, params.email, 'email'));
    return { sent: true };
  },

  'POST /resetpasswords/{email}/{token}/{newPassword}': async ({ params, event }) => {
    await resetPassword(parseInput(resetPasswordParamsSchema, params), clientInfo(event));
    return { reset: true };
  },

  'GET /version': async () => ({ version: env.serverVersion }),
});
