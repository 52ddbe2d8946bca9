/** A socket's connection record as $connect stores it, for the realtime publisher's tests. */
import type { ConnectionRecord } from '../../src/storage/ws-connections.ts';

const far = Math.floor(Date.now() / 1000) + 3600;

export function connectionRecord(connectionId: string, overrides: Partial<ConnectionRecord> = {}): ConnectionRecord {
  return {
    connectionId,
    companyId: 1,
    userId: 1,
    profile: 'user',
    super: false,
    queueIds: [],
    allTicket: 'desabled',
    tokenExpiresAt: far,
    tokenIssuedAt: 0,
    tokenJti: '',
    tokenOrigin: '',
    connectedAt: '',
    lastSeenAt: '',
    status: 'online',
    expiresAt: far,
    ...overrides,
  };
}
