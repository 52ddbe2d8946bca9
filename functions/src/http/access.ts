/**
 * Route access, enforced on the server (BEHAVIOUR "Enforced on the server"). The tenant comes from
 * the verified token only; the user record decides profile, super flag and the single session.
 * Order: who are you (401) -> is your company usable (403/402) -> may you call this (403).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CompanyExpiredError, ForbiddenError, UnauthorizedError } from '#commons/errors';
import { verifyIdToken } from '#commons/jwt';
import { expiredMessage } from '#contracts/auth';
import { planFlags } from '#contracts/plans';
import { isSupersededSession, isTokenOfUser, lacksSecondFactor, mfaPolicyApplies } from '#contracts/session';
import { isExpired } from '#domain/auth/due-date-policy';
import { type CompanyRecord, getCompanyBatched } from '#storage/companies/companies';
import { getPlanCached, type PlanRecord } from '#storage/plans/plans';
import { getSettingCached } from '#storage/settings';
import { getUserBatched } from '#storage/users/users';
import type { HttpRoute } from '../routes.ts';
import type { Identity, RequestContext } from './types.ts';

export function bearerToken(event: APIGatewayProxyEventV2): string | undefined {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/** A company whose plan was removed keeps working, with every gated feature off. */
function missingPlan(company: CompanyRecord): PlanRecord {
  const flags = Object.fromEntries(planFlags.map((flag) => [flag, false])) as Record<(typeof planFlags)[number], boolean>;
  return {
    id: company.planId,
    name: '',
    users: 0,
    connections: 0,
    queues: 0,
    campaigns: 0,
    schedules: 0,
    value: 0,
    ...flags,
    createdAt: '',
    updatedAt: '',
  };
}

/**
 * Verifies the bearer token and loads who is calling, refusing stale sessions. `claiming`: the
 * caller is claiming the session with this token (POST /auth/session), so it need not own it yet.
 *
 * Every request reads the user and the company fresh, together in one BatchGetItem: a deleted
 * user, a logout, a changed profile or queues, an inactive company take effect on the next request.
 * The plan (platform-wide feature flags and limits) comes from the read cache, up to 5 s stale.
 */
export async function loadIdentity(rawToken: string | undefined, options: { claiming?: boolean } = {}): Promise<Identity> {
  const token = await verifyIdToken(rawToken);
  const [user, company] = await Promise.all([getUserBatched(token.companyId, token.userId), getCompanyBatched(token.companyId)]);
  if (!user) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  // The tenancy attributes only name a record; the sub proves it is this caller's (a user who
  // rewrote its own custom:companyId, or a Cognito user recreated with the same attributes).
  if (!isTokenOfUser(token, user)) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  // Single session: a newer login elsewhere, or a logout, ended every other sign-in's tokens.
  if (!options.claiming && isSupersededSession(token, user)) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  // Second factor on: only the sign-in that passed its challenge (POST /auth/session opens the challenge).
  if (!options.claiming && lacksSecondFactor(token, user)) throw new UnauthorizedError('ERR_MFA_REQUIRED');
  if (!company) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  const plan = (await getPlanCached(company.planId)) ?? missingPlan(company);
  return {
    userId: user.id,
    companyId: company.id,
    profile: user.profile,
    super: Boolean(user.super),
    email: user.email,
    user,
    company,
    plan,
    token,
    rawToken: rawToken as string,
  };
}

/** Company status and due date; super users keep access to fix a blocked company. */
export function assertCompanyUsable(identity: Identity, allowExpired: boolean): void {
  if (identity.super) return;
  if (identity.company.status === false) throw new ForbiddenError('ERR_COMPANY_INACTIVE');
  const { dueDate } = identity.company;
  if (!allowExpired && dueDate && isExpired(dueDate)) throw new CompanyExpiredError(dueDate, expiredMessage(dueDate));
}

export function assertRouteAccess(identity: Identity, route: HttpRoute): void {
  if (route.access === 'super' && !identity.super) throw new ForbiddenError('ERR_NO_PERMISSION');
  if (route.access === 'admin' && !isAdmin(identity)) throw new ForbiddenError('ERR_NO_PERMISSION');
  if (route.plan && !identity.plan[route.plan]) throw new ForbiddenError('ERR_PLAN_FEATURE_DISABLED', { flag: route.plan });
}

/**
 * The company's `mfaRequired` setting asks a second factor of this user, who has none: until it
 * enrols, only the routes marked `mfaEnrolment` (enrolment, the session, logout) answer (issue 21).
 */
export async function assertMfaEnrolled(identity: Identity, route: HttpRoute): Promise<void> {
  if (route.mfaEnrolment || identity.user.mfaEnabled) return;
  if (mfaPolicyApplies(await getSettingCached(identity.companyId, 'mfaRequired'), identity.user))
    throw new ForbiddenError('ERR_MFA_ENROLMENT_REQUIRED');
}

export async function authenticate(event: APIGatewayProxyEventV2, route: HttpRoute): Promise<Identity | undefined> {
  if (route.access === 'public') return undefined;
  const identity = await loadIdentity(bearerToken(event), { claiming: route.claimsSession });
  assertCompanyUsable(identity, Boolean(route.allowExpired));
  await assertMfaEnrolled(identity, route);
  assertRouteAccess(identity, route);
  return identity;
}

export const isAdmin = (identity: Identity): boolean => identity.profile === 'admin' || identity.super;

/** For actions on non-public routes: the identity the framework already checked. */
export function requireIdentity(ctx: RequestContext): Identity {
  if (!ctx.identity) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
  return ctx.identity;
}
