/** The Connections page's pure rules and its live cache updates (SPEC 2 "Connections", 4 "Connection status"). */
import type { Connection } from '@conversa/functions/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { hasConnectionAlert } from '../src/app/layout/menu-badges.ts';
import { formatUpdatedAt, sessionButtonsFor } from '../src/features/connections/api/session-rules.ts';
import { connectionKeys, patchSession, putConnection, removeConnection } from '../src/lib/lookups/connections.ts';

const connection = (overrides: Partial<Connection>): Connection =>
  ({
    id: 1,
    companyId: 1,
    name: 'Main',
    status: 'CONNECTED',
    qrcode: '',
    retries: 0,
    token: '',
    isDefault: true,
    queues: [],
    queueIds: [],
    ...overrides,
  }) as Connection;

describe('session buttons by status', () => {
  it('offers exactly the spec buttons', () => {
    expect(sessionButtonsFor('qrcode')).toEqual(['qr']);
    expect(sessionButtonsFor('DISCONNECTED')).toEqual(['start', 'newQr']);
    for (const status of ['CONNECTED', 'PAIRING', 'TIMEOUT'] as const) expect(sessionButtonsFor(status)).toEqual(['disconnect']);
    expect(sessionButtonsFor('OPENING')).toEqual(['connecting']);
  });
});

describe('last update column', () => {
  it('formats as dd/MM/yy HH:mm in local time and tolerates junk', () => {
    const local = new Date(2026, 2, 5, 9, 7);
    expect(formatUpdatedAt(local.toISOString(), 'pt')).toBe('05/03/26 09:07');
    expect(formatUpdatedAt(local.toISOString(), 'es')).toBe('05/03/26 09:07');
    expect(formatUpdatedAt(local.toISOString(), 'en')).toBe('03/05/26 09:07');
    expect(formatUpdatedAt('not a date')).toBe('');
    expect(formatUpdatedAt(undefined)).toBe('');
  });
});

describe('live cache updates', () => {
  it('applies whatsapp and whatsappSession events to the list the drawer badge reads', () => {
    const client = new QueryClient();
    client.setQueryData(connectionKeys.list(), [connection({ id: 1, token: 'secret' }), connection({ id: 2, isDefault: false })]);
    client.setQueryData(connectionKeys.detail(1), connection({ id: 1, token: 'secret' }));

    patchSession(client, { id: 2, status: 'qrcode', qrcode: 'QR', retries: 1, updatedAt: '2026-01-01T00:00:00Z', number: '' });
    expect(hasConnectionAlert(client.getQueryData(connectionKeys.list()))).toBe(true);

    // A realtime update has no token: the admin's cached token survives.
    putConnection(client, connection({ id: 1, name: 'Renamed', token: '' }));
    const list = client.getQueryData<Connection[]>(connectionKeys.list()) ?? [];
    expect(list.map((c) => [c.id, c.name, c.token])).toEqual([
      [1, 'Renamed', 'secret'],
      [2, 'Main', ''],
    ]);
    expect(client.getQueryData<Connection>(connectionKeys.detail(1))?.name).toBe('Renamed');

    putConnection(client, connection({ id: 3, status: 'OPENING' }));
    removeConnection(client, 2);
    expect((client.getQueryData<Connection[]>(connectionKeys.list()) ?? []).map((c) => c.id)).toEqual([1, 3]);
    patchSession(client, { id: 3, status: 'CONNECTED', qrcode: '', retries: 0, updatedAt: '2026-01-01T00:00:00Z', number: '5511' });
    expect(hasConnectionAlert(client.getQueryData(connectionKeys.list()))).toBe(false);
  });
});
