/**
 * `company-{id}-whatsapp` and `company-{id}-whatsappSession` (SPEC 7 "Realtime") go to every socket
 * of the company: attendants see connection states too (the ticket screens name connections).
 */
import { channels } from '#contracts/channels';
import type { Connection } from '#contracts/connections';
import { publishToCompany } from '#realtime/publisher';
import type { ConnectionRecord } from '#storage/connections';
import { toSessionEvent } from './present.ts';

export async function publishConnection(connection: Connection): Promise<void> {
  await publishToCompany(connection.companyId, channels.whatsapp(connection.companyId), { action: 'update', whatsapp: connection });
}

export async function publishConnectionDeleted(companyId: number, connectionId: number): Promise<void> {
  await publishToCompany(companyId, channels.whatsapp(companyId), { action: 'delete', whatsappId: connectionId });
}

export async function publishSession(record: ConnectionRecord): Promise<void> {
  await publishToCompany(record.companyId, channels.whatsappSession(record.companyId), toSessionEvent(record));
}
