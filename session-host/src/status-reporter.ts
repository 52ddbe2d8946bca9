/**
 * Session status -> the connection record and the company's live `whatsappSession` event.
 */
import type { ConnectionStatus, WhatsappSessionEvent } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { publishToCompany } from '@conversa/functions/realtime/publisher';
import { updateConnectionSession } from '@conversa/functions/storage/connections';
import type { SessionKey } from './storage/leases.ts';

export interface StatusUpdate {
  status: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string;
}

export interface StatusReporter {
  /** 'deleted' when the connection no longer exists: the caller stops the session for good. */
  report(key: SessionKey, update: StatusUpdate): Promise<'ok' | 'deleted'>;
}

export const statusReporter: StatusReporter = {
  async report({ companyId, connectionId }, update) {
    const record = await updateConnectionSession(companyId, connectionId, {
      status: update.status,
      // The QR modal closes when an update arrives with an empty qrcode (SPEC 4 "Connection status").
      qrcode: update.status === 'qrcode' ? (update.qrcode ?? '') : '',
      retries: update.retries,
      number: update.number,
    });
    if (!record) return 'deleted';
    const event: WhatsappSessionEvent = {
      action: 'update',
      session: {
        id: record.id,
        status: record.status,
        qrcode: record.qrcode,
        retries: record.retries,
        updatedAt: record.updatedAt,
        number: record.number,
      },
    };
    await publishToCompany(companyId, channels.whatsappSession(companyId), event);
    return 'ok';
  },
};
