/**
 * Use cases behind the auth routes. They take plain inputs and return the contract shapes; the
 * handler only parses and validates.
 */

import { passwordSignIn, refreshSignIn, revokeRefreshToken } from '#adapters/cognito-auth';
import { AppError, CompanyExpiredError, ForbiddenError, UnauthorizedError } from '#commons/errors';
import { type TokenIdentity, verifyIdToken } from '#commons/jwt';
import { expiredMessage, type LoginResponse } from '#contracts/auth';
import type { MfaChallengeResponse } from '#contracts/mfa';
import { isTokenOfUser, lacksSecondFactor, signInIdOf } from '#contracts/session';
import { recordAudit } from '#domain/audit/record';
import { type CompanyRecord, getCompany } from '#storage/companies/companies';
import { setMfaOrigin } from '#storage/users/mfa';
import { addSessionToken, getUser, getUserByEmail, type UserRecord } from '#storage/users/users';
import { accountPasswordLimit, addressSecretLimit, beginAttempt } from './attempt-limits.ts';
import { dueDateWarning, isExpired } from './due-date-policy.ts';
import { mfaRequiredOf, openMfaChallenge, passMfaChallenge } from './mfa.ts';
import { endSession, startSession } from './session.ts';
import { sessionUser } from './session-user.ts';

/** SPEC 5 "Login": inactive or expired companies cannot sign in; super users can, to repair them. */
export function assertCompanyCanSignIn(user: Pick<UserRecord, 'super'>, company: CompanyRecord): void {
  if (user.super) return;
  if (company.status === false) throw new ForbiddenError('ERR_COMPANY_INACTIVE');
  if (company.dueDate && isExpired(company.dueDate)) throw new CompanyExpiredError(company.dueDate, expiredMessage(company.dueDate));
}

/**
 * The web app's sign-in: as assertCompanyCanSignIn, except that an expired company's admins get in, to
 * pay (issue 12: an expired company must reach billing, not a dead end). Their session is billing's
 * only: the route table answers 402 on every route not marked allowExpired, and the web app sends
 * them to /financeiro. Plain users cannot pay, so they stay refused with the Spanish message.
 */
export function assertCompanyCanClaimWebSession(user: Pick<UserRecord, 'super' | 'profile'>, company: CompanyRecord): void {
  if (user.profile === 'admin' && company.status !== false) return;
  assertCompanyCanSignIn(user, company);
}

async function loadAccount(token: TokenIdentity, code: 'ERR_INVALID_CREDENTIALS' | 'ERR_SESSION_EXPIRED') {
  const user = await getUser(token.companyId, token.userId);
  if (!user || !isTokenOfUser(token, user)) throw new UnauthorizedError(code);
  const company = await getCompany(user.companyId);
  if (!company) throw new UnauthorizedError(code);
  return { user, company };
}

async function sessionResponse(
  user: UserRecord,
  company: CompanyRecord,
  token: string,
  refreshToken?: string,
  accessToken?: string,
): Promise<LoginResponse> {
  const warning = user.super ? undefined : dueDateWarning(company.dueDate);
  const [presented, mustEnrol] = await Promise.all([sessionUser(user, company), user.mfaEnabled ? false : mfaRequiredOf(user)]);
  return {
    token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(accessToken ? { accessToken } : {}),
    user: presented,
    ...(warning ? { dueDateWarning: warning } : {}),
    // The company requires a second factor of this user: enrolment is all the session may do.
    ...(mustEnrol ? { mfaEnrolmentRequired: true } : {}),
  };
}

/** Where a request came from, for the per-address limits (API Gateway's sourceIp). */
export interface ClientInfo {
  sourceIp: string | undefined;
}

/** Wrong passwords count per account and per address (attempt-limits.ts); a right one is handed back. */
async function checkedSignIn(email: string, password: string, client: ClientInfo) {
  const attempt = await beginAttempt([accountPasswordLimit(email), addressSecretLimit(client.sourceIp)]);
  try {
    const tokens = await passwordSignIn(email, password);
    await attempt.refund();
    return tokens;
  } catch (error) {
    // Only a refused password is a guess; Cognito throttling or an outage is not.
    if (!(error instanceof UnauthorizedError)) await attempt.refund();
    throw error;
  }
}

/** The trail's entry of a completed sign-in, in the user's company (the route is public: no caller yet). */
const recordSignIn = (user: UserRecord, via: 'password' | 'web' | 'mfa') =>
  recordAudit({
    companyId: user.companyId,
    userId: user.id,
    userName: user.name,
    action: 'auth.login',
    targetType: 'session',
    targetId: user.id,
    changes: { via: { from: null, to: via } },
  });

/**
 * A refused sign-in of a known account goes to its company's trail with the reason. An unknown
 * e-mail has no company to hold it, and a throttled attempt (429) is the limiter's to count: a
 * flood of those would only flood the trail.
 */
async function recordFailedSignIn(account: string | UserRecord, error: unknown): Promise<void> {
  if (!(error instanceof AppError) || error.status === 429) return;
  const user = typeof account === 'string' ? await getUserByEmail(account).catch(() => undefined) : account;
  if (!user) return;
  await recordAudit({
    companyId: user.companyId,
    userId: user.id,
    userName: user.name,
    action: 'auth.loginFailed',
    targetType: 'session',
    targetId: user.id,
    // The address as typed (the entry's ip and userAgent come from the request).
    changes: { reason: { from: null, to: error.code }, email: { from: null, to: typeof account === 'string' ? account : user.email } },
  });
}

/**
 * POST /auth/login. The web app signs in here too (`web: true`), not straight to Cognito, so every
 * wrong password it sends is counted (attempt-limits.ts) and lands in the company's audit trail with
 * the address it came from: Cognito has no trigger on a failed sign-in, and its pre-authentication
 * trigger would only add a Lambda call to every successful one.
 */
export async function login(
  input: { email: string; password: string; web?: boolean },
  client: ClientInfo,
): Promise<LoginResponse | MfaChallengeResponse> {
  try {
    return await passwordLogin(input, client);
  } catch (error) {
    await recordFailedSignIn(input.email, error);
    throw error;
  }
}

async function passwordLogin(
  input: { email: string; password: string; web?: boolean },
  client: ClientInfo,
): Promise<LoginResponse | MfaChallengeResponse> {
  const tokens = await checkedSignIn(input.email, input.password, client);
  const token = await verifyIdToken(tokens.idToken);
  const { user, company } = await loadAccount(token, 'ERR_INVALID_CREDENTIALS');
  try {
    // The web app's admins of an expired company get in to pay, as with POST /auth/session.
    if (input.web) assertCompanyCanClaimWebSession(user, company);
    else assertCompanyCanSignIn(user, company);
  } catch (error) {
    // Refused sign-ins leave no live refresh token behind.
    await revokeRefreshToken(tokens.refreshToken);
    throw error;
  }
  // The password alone opens nothing: the session is claimed once the code passes (completeMfaSignIn).
  if (user.mfaEnabled) return openMfaChallenge(user, tokens);
  await startSession(user.companyId, user.id, token, tokens.refreshToken);
  await recordSignIn(user, input.web ? 'web' : 'password');
  const fresh = (await getUser(user.companyId, user.id)) ?? user;
  return sessionResponse(fresh, company, tokens.idToken, tokens.refreshToken, tokens.accessToken);
}

/** POST /auth/session: a client signed in straight to Cognito (Amplify) claims the session. */
export async function claimWebSession(
  account: { user: UserRecord; company: CompanyRecord; token: TokenIdentity; rawToken: string },
  refreshToken: string | undefined,
): Promise<LoginResponse | MfaChallengeResponse> {
  try {
    assertCompanyCanClaimWebSession(account.user, account.company);
  } catch (error) {
    // The password was right but the company may not sign in (inactive, expired): a refused sign-in.
    await recordFailedSignIn(account.user, error);
    throw error;
  }
  // A token from Cognito (Amplify or any direct sign-in) is no session until its sign-in passes the code.
  if (lacksSecondFactor(account.token, account.user)) return openMfaChallenge(account.user, { idToken: account.rawToken, refreshToken });
  await startSession(account.user.companyId, account.user.id, account.token, refreshToken ?? null);
  await recordSignIn(account.user, 'web');
  return sessionResponse(account.user, account.company, account.rawToken);
}

/**
 * POST /auth/mfa/challenge: the right code completes the sign-in that opened the challenge (by
 * password or by a Cognito token): its sign-in is marked as having passed the second factor, claims
 * the session, and the answer is what login answers.
 */
export async function completeMfaSignIn(input: { challenge: string; code: string }): Promise<LoginResponse> {
  const passed = await passMfaChallenge(input.challenge, input.code);
  const token = await verifyIdToken(passed.idToken);
  const { user, company } = await loadAccount(token, 'ERR_SESSION_EXPIRED');
  if (user.id !== passed.user.id || user.companyId !== passed.user.companyId) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  assertCompanyCanClaimWebSession(user, company);
  await setMfaOrigin(user.companyId, user.id, signInIdOf(token));
  await startSession(user.companyId, user.id, token, passed.refreshToken);
  await recordSignIn(user, 'mfa');
  const fresh = (await getUser(user.companyId, user.id)) ?? user;
  return sessionResponse(fresh, company, passed.idToken, passed.refreshToken ?? undefined, passed.accessToken ?? undefined);
}

/** Only the refresh token of the newest session may mint tokens, even where revocation lags. */
export async function refreshSession(refreshToken: string): Promise<Pick<LoginResponse, 'token' | 'user'>> {
  const idToken = await refreshSignIn(refreshToken);
  const token = await verifyIdToken(idToken);
  const { user, company } = await loadAccount(token, 'ERR_SESSION_EXPIRED');
  if (!user.sessionRefreshToken || user.sessionRefreshToken !== refreshToken) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  assertCompanyCanSignIn(user, company);
  // A token minted within the sign-in's own second must not look like another sign-in's.
  if (token.issuedAt === user.sessionIat && token.jti)
    await addSessionToken(user.companyId, user.id, token.issuedAt, refreshToken, token.jti);
  return { token: idToken, user: await sessionUser(user, company) };
}

/**
 * Ends the session: its refresh token is revoked and every ID token it minted is refused from now on
 * (REST and `$connect`), the caller's own included, though Cognito would accept them until expiry;
 * the user's other tabs get the auth event and sign out. The next sign-in starts a new session.
 */
export async function logout(user: UserRecord, token: Pick<TokenIdentity, 'issuedAt' | 'originJti'>): Promise<void> {
  const endedAt = Math.max(Math.floor(Date.now() / 1000), token.issuedAt);
  await endSession(user.companyId, user.id, endedAt, token.originJti || undefined);
  await revokeRefreshToken(user.sessionRefreshToken);
  await recordAudit({ action: 'auth.logout', targetType: 'session', targetId: user.id });
}
