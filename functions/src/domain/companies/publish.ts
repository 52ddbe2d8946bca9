/**
 * Realtime notification for company-scoped changes (`company-{id}-user`, `-settings`, `-company`).
 * The realtime publisher already logs and swallows delivery failures, so a change that is stored
 * is never reported as failed because a socket was gone.
 */
import { publishToCompany as publish } from '#realtime/publisher';

export async function publishToCompany(companyId: number, event: string, data: unknown): Promise<void> {
  await publish(companyId, event, data);
}

/** To the company's super users only (super-only settings: the platform's keys). */
export async function publishToSupers(companyId: number, event: string, data: unknown): Promise<void> {
  await publish(companyId, event, data, (connection) => connection.super);
}
