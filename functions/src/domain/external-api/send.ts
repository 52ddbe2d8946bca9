/**
 * POST /api/messages/send (BEHAVIOUR "External messages API"): a connection token instead of a user
 * session. The token picks the connection and so the tenant; the company must be usable (active,
 * not expired) and its plan must have useExternalApi, checked here on the server. Each token gets
 * EXTERNAL_API_LIMIT requests per window; each client address ADDRESS_API_TOKEN_LIMIT unknown tokens
 * per window (domain/auth/attempt-limits.ts), after which its unknown tokens get 429 while a valid
 * token from it still sends: an address is often a NAT shared with strangers, whose guesses must not
 * cut a company's integration. Guessing itself is held off by the token's length (16+ characters; the
 * web generates 24 random bytes), not by that lock. Every answer to a known token tells its window
(RateLimitState, the handler's RateLimit-* headers). The number is unmasked to digits (country code, area
 * code, number); the contact and its ticket on that connection are found or created, then the
 * message goes out like an attendant's (stored pending first, then the `send` command).
 */
import { createHash } from 'node:crypto';
import { AppError, CompanyExpiredError, ForbiddenError, UnauthorizedError, ValidationError } from '#commons/errors';
import { expiredMessage } from '#contracts/auth';
import { CONNECTION_TOKEN_MIN } from '#contracts/connections';
import { numberDigits } from '#contracts/contacts';
import { addressApiTokenLimit, assertNotLocked, countFailure } from '#domain/auth/attempt-limits';
import { isExpired } from '#domain/auth/due-date-policy';
import { resolveContact } from '#domain/contacts/resolve';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { assertSendable, type OutgoingFile, sendOnTicket } from '#domain/outbound/send';
import { getCompanySetting } from '#domain/settings/settings';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import { publishTicketLost } from '#domain/tickets/notify';
import { type CompanyRecord, getCompany } from '#storage/companies/companies';
import { type ConnectionRecord, getConnectionByToken } from '#storage/connections';
import { getPlan } from '#storage/plans/plans';
import { hitWindow } from '#storage/rate-limits';

export const EXTERNAL_API_LIMIT = 60;
export const EXTERNAL_API_WINDOW_SECONDS = 60;
export const SENT_ANSWER = { mensagem: 'Mensagem enviada' } as const;

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('ERR_TOO_MANY_REQUESTS', 429, {
      retryAfter: retryAfterSeconds,
      message: `This connection token has used its ${EXTERNAL_API_LIMIT} requests of this minute; retry after ${retryAfterSeconds} s (Retry-After).`,
    });
  }
}

export interface ExternalSender {
  connection: ConnectionRecord;
  company: CompanyRecord;
}

/** The token's window after counting this request, as the RateLimit-* headers tell it. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetInSeconds: number;
}

/** A known token, counted in its window, not yet checked against its limit and its company's gates. */
export interface AdmittedRequest {
  sender: ExternalSender;
  rate: RateLimitState;
  /** This request is past the token's limit (the limit-th request itself is allowed, with 0 remaining). */
  overLimit: boolean;
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 32);

/** Shorter tokens are refused outright: they could be guessed (connections need 16 characters, #contracts/whatsapp). */
const guessable = (token: string) => token.length < CONNECTION_TOKEN_MIN;

/**
 * Unknown token: 429 when this address is over its unknown-token limit, else 401 (counted). A known
 * token is counted in its window and admitted; assertAdmitted then checks, whatever its address did:
 * 429 over the token's limit -> 403 inactive -> 402 expired -> 403 plan without the API.
 */
export async function admitExternalRequest(
  token: string | undefined,
  client: { sourceIp: string | undefined },
  nowMs = Date.now(),
): Promise<AdmittedRequest> {
  if (!token) throw new UnauthorizedError('ERR_UNAUTHORIZED');
  const connection = guessable(token) ? undefined : await getConnectionByToken(token);
  const company = connection ? await getCompany(connection.companyId) : undefined;
  if (!connection || !company) {
    // Only unknown tokens meet the address's lock; a locked address's retries do not lengthen it.
    const limit = addressApiTokenLimit(client.sourceIp);
    await assertNotLocked(limit, nowMs);
    await countFailure(limit, nowMs);
    throw new UnauthorizedError('ERR_UNAUTHORIZED');
  }
  const hit = await hitWindow(company.id, `EXTAPI#${tokenDigest(token)}`, EXTERNAL_API_WINDOW_SECONDS, nowMs);
  return {
    sender: { connection, company },
    rate: { limit: EXTERNAL_API_LIMIT, remaining: Math.max(0, EXTERNAL_API_LIMIT - hit.count), resetInSeconds: hit.resetInSeconds },
    overLimit: hit.count > EXTERNAL_API_LIMIT,
  };
}

export async function assertAdmitted({ sender, rate, overLimit }: AdmittedRequest): Promise<ExternalSender> {
  const { company } = sender;
  if (overLimit) throw new TooManyRequestsError(rate.resetInSeconds);
  if (company.status === false) throw new ForbiddenError('ERR_COMPANY_INACTIVE');
  if (company.dueDate && isExpired(company.dueDate)) throw new CompanyExpiredError(company.dueDate, expiredMessage(company.dueDate));
  const plan = await getPlan(company.planId);
  if (!plan?.useExternalApi) throw new ForbiddenError('ERR_PLAN_FEATURE_DISABLED', { flag: 'useExternalApi' });
  return sender;
}

export async function authorizeExternalSender(
  token: string | undefined,
  client: { sourceIp: string | undefined },
  nowMs = Date.now(),
): Promise<ExternalSender> {
  return assertAdmitted(await admitExternalRequest(token, client, nowMs));
}

/** Digits with the country and area codes: 10 to 15 of them (E.164's maximum). */
export function externalNumber(raw: string): string {
  const digits = numberDigits(raw);
  if (!/^[1-9]\d{9,14}$/.test(digits)) throw new ValidationError('number', 'Invalid WhatsApp number', 'ERR_WAPP_INVALID_CONTACT');
  return digits;
}

export interface ExternalSend {
  number: string;
  bodies: string[];
  files: OutgoingFile[];
}

export async function sendExternalMessage(
  sender: ExternalSender,
  request: ExternalSend,
  effects: Effects = defaultEffects,
): Promise<typeof SENT_ANSWER> {
  const number = externalNumber(request.number);
  // Before the contact and ticket exist: a refused request leaves nothing behind.
  assertSendable(request.bodies, request.files);
  const companyId = sender.company.id;
  const connectionId = sender.connection.id;
  const contact = await resolveContact({ companyId, connectionId, number, isGroup: false, fromMe: true }, effects);
  const { ticket, previous } = await findOrCreateTicket({
    companyId,
    connectionId,
    contact,
    reopenWithinHours: Number(await getCompanySetting(companyId, 'timeCreateNewTicket')) || 0,
    now: effects.now(),
  });
  await sendOnTicket({ companyId, ticket, userId: null, bodies: request.bodies, files: request.files, origin: 'api' }, effects);
  // Reopened without its attendant: who saw it only as theirs drops it (tickets/notify).
  if (previous) await publishTicketLost(effects, previous, ticket);
  return SENT_ANSWER;
}
