import type { ErrorBody } from '@conversa/functions/contracts';
import { runtimeConfig } from '../config/runtime-config.ts';
import { currentIdToken } from './auth/tokens.ts';

/** A non-2xx answer of the API, carrying the spec's `{ error }` body (SPEC 8). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | string | undefined;
  constructor(status: number, body: ErrorBody | string | undefined) {
    super(typeof body === 'string' ? body : (body?.error ?? `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  get code(): string | undefined {
    return typeof this.body === 'object' ? this.body.error : undefined;
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Query;
  /** Public routes (signup, plan list, version) go out without a bearer. */
  anonymous?: boolean;
  signal?: AbortSignal;
}

let onUnauthorized: () => void = () => {};
/** The auth layer registers how a 401 ends the session (sign out, go to /login). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

let onCompanyExpired: (error: ApiError) => void = () => {};
/** The auth layer registers what a 402 (the company's due date passed) does to the session (SPEC 5). */
export function setCompanyExpiredHandler(handler: (error: ApiError) => void): void {
  onCompanyExpired = handler;
}

function buildUrl(path: string, query?: Query): string {
  const url = new URL(`${runtimeConfig().apiUrl}${path}`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url.toString();
}

async function send(path: string, options: RequestOptions, forceRefresh: boolean): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (!options.anonymous) {
    const token = await currentIdToken(forceRefresh);
    if (token) headers.Authorization = `Bearer ${token.jwt}`;
  }
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A 403 that a fresh token cannot change: the user must enrol a second factor first (issue 21). A
 * forced refresh would only add Cognito calls on every refused request while the enrolment is shown.
 */
async function isRefusalNoTokenFixes(response: Response): Promise<boolean> {
  const body = await readBody(response.clone());
  return typeof body === 'object' && body !== null && (body as ErrorBody).error === 'ERR_MFA_ENROLMENT_REQUIRED';
}

/**
 * The one API client. SPEC 4 "Session and sockets": a 403 gets one forced token refresh and one
 * retry (the claims may be stale after a profile change); a 401 ends the session; a 402 (the
 * company expired) goes to the auth layer, which signs a plain user out and confines an admin to billing.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response = await send(path, options, false);
  if (response.status === 403 && !options.anonymous && !(await isRefusalNoTokenFixes(response))) response = await send(path, options, true);
  const body = await readBody(response);
  if (response.ok) return body as T;
  if (response.status === 401 && !options.anonymous) onUnauthorized();
  const error = new ApiError(response.status, body as ErrorBody | string | undefined);
  if (response.status === 402 && !options.anonymous) onCompanyExpired(error);
  throw error;
}
