/**
 * Who is acting and from where, for the audit entries written while one request is served.
 *
 * The HTTP layer opens the scope once per request (http/handler.ts) with the caller's address and
 * user agent and, once the token is verified, the caller; `recordAudit` reads it. So an act's use
 * case names only what it did (action, target, changes) and never threads the request's address
 * through every signature, and a use case run outside a request (a job, a consumer) records with
 * no address, as it has none.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuditActor {
  companyId: number;
  userId: number;
  userName: string;
}

export interface AuditScope {
  ip: string | null;
  userAgent: string | null;
  actor?: AuditActor;
}

const storage = new AsyncLocalStorage<AuditScope>();

export const runInAuditScope = <T>(scope: AuditScope, run: () => Promise<T>): Promise<T> => storage.run(scope, run);

export const currentAuditScope = (): AuditScope | undefined => storage.getStore();
