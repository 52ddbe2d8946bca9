/**
 * Realtime notification for company-scoped changes (`company-{id}-user`, `-settings`, `-company`).
 * The realtime publisher already logs and swallows delivery failures, so a change that is stored
 * is never reported as failed because a socket was gone.
 */
import { audience, publishToCompany as publish } from '#realtime/publisher';

export async function publishToCompany(companyId: number, event: string, data: unknown): Promise<void> {
  await publish(companyId, event, data);
}

/** To the company's admins and super users only (admin-only settings). */
export async function publishToAdmins(companyId: number, event: string, data: unknown): Promise<void> {
  await publish(companyId, event, data, audience.admins);
}
