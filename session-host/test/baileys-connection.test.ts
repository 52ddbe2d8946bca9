/**
 * Baileys provider, connection side: QR and pairing codes, reconnect by disconnect reason, and the
 * auth state stored per key in DynamoDB Local. The last test runs the real makeWASocket against a
 * closed local port (never WhatsApp).
 */
import { BufferJSON, type SignalDataSet } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../functions/test/support/processes.ts';
import { authItems, disconnect, fakeSocketFactory, provider, recorder, type Stores, startStores } from './fixtures/baileys/harness.ts';

let stores: Stores;
beforeAll(async () => {
  stores = await startStores();
}, 60_000);
afterAll(async () => {
  await stores?.stop();
});

let nextConnection = 100;
const spec = () => ({ companyId: 7, connectionId: nextConnection++ });

describe('login codes', () => {
  it('reports each QR with its retry count and gives up (DISCONNECTED) after 3 unscanned codes', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(spec(), rec.callbacks);
    const sock = fake.last();

    sock.ev.emit('connection.update', { qr: 'QR-1' });
    await vi.waitFor(() => expect(rec.statuses).toContainEqual({ status: 'qrcode', qrcode: 'QR-1', retries: 1 }));
    sock.ev.emit('connection.update', { qr: 'QR-2' });
    sock.ev.emit('connection.update', { qr: 'QR-3' });
    await vi.waitFor(() => expect(rec.statuses).toContainEqual({ status: 'qrcode', qrcode: 'QR-3', retries: 3 }));
    sock.ev.emit('connection.update', { qr: 'QR-4' });

    await vi.waitFor(() => expect(rec.statuses.at(-1)).toMatchObject({ status: 'DISCONNECTED', qrcode: '' }));
    expect(rec.statuses.map((s) => s.qrcode)).not.toContain('QR-4');
    expect(sock.end).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.sockets).toHaveLength(1); // no reconnect after giving up
    await handle.stop();
  });

  it('asks for a pairing code once per socket when a pairing number is given (PAIRING)', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    await provider(stores, { makeSocket: fake.makeSocket }).start({ ...spec(), pairingNumber: '+55 11 98888-7777' }, rec.callbacks);
    const sock = fake.last();
    sock.ev.emit('connection.update', { qr: 'QR-1' });
    sock.ev.emit('connection.update', { qr: 'QR-2' });
    await vi.waitFor(() => expect(rec.statuses).toContainEqual({ status: 'PAIRING', qrcode: 'ABCD2345', retries: 1 }));
    expect(sock.requestPairingCode).toHaveBeenCalledTimes(1);
    expect(sock.requestPairingCode).toHaveBeenCalledWith('5511988887777');
    expect(rec.statuses.some((s) => s.status === 'qrcode')).toBe(false);
  });
});

describe('disconnect reasons', () => {
  it('515 restart required: a new socket at once with the same (now registered) credentials, then CONNECTED', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    await provider(stores, { makeSocket: fake.makeSocket, reconnectDelayMs: () => 60_000 }).start(spec(), rec.callbacks);
    const first = fake.last();
    first.ev.emit('creds.update', { registered: true, me: { id: '5511977776666:7@s.whatsapp.net' } });
    first.ev.emit('connection.update', disconnect(515));

    await vi.waitFor(() => expect(fake.sockets).toHaveLength(2)); // not waiting the 60 s back-off
    const second = fake.last();
    expect(second.config.auth.creds.registered).toBe(true);
    expect(second.config.auth.creds.noiseKey).toEqual(first.config.auth.creds.noiseKey);
    second.open('5511977776666');
    await vi.waitFor(() => expect(rec.statuses.at(-1)).toEqual({ status: 'CONNECTED', qrcode: '', retries: 0, number: '5511977776666' }));
    // Events of the replaced socket are ignored.
    first.ev.emit('connection.update', { qr: 'stale' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rec.statuses.some((s) => s.qrcode === 'stale')).toBe(false);
  });

  it('401 logged out: credentials gone from DynamoDB, DISCONNECTED, no reconnect', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    const session = spec();
    await provider(stores, { makeSocket: fake.makeSocket }).start(session, rec.callbacks);
    const sock = fake.last();
    await sock.config.auth.keys.set({ session: { '5511977776666.0': new Uint8Array([1, 2, 3]) } });
    sock.open('5511977776666');
    await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
    expect((await authItems(session.companyId, session.connectionId)).size).toBe(2);

    sock.ev.emit('connection.update', disconnect(401));

    await vi.waitFor(() => expect(rec.statuses.at(-1)).toMatchObject({ status: 'DISCONNECTED', reason: 'loggedOut' }));
    expect((await authItems(session.companyId, session.connectionId)).size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.sockets).toHaveLength(1);
  });

  it('other reasons reconnect with growing back-off, reporting TIMEOUT (408) or OPENING', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    const delays: number[] = [];
    const handle = await provider(stores, {
      makeSocket: fake.makeSocket,
      reconnectDelayMs: (attempt) => {
        delays.push(attempt);
        return 5 * attempt;
      },
    }).start(spec(), rec.callbacks);
    fake.last().ev.emit('connection.update', disconnect(408));
    await vi.waitFor(() => expect(fake.sockets).toHaveLength(2));
    fake.last().ev.emit('connection.update', disconnect(428));
    await vi.waitFor(() => expect(fake.sockets).toHaveLength(3));
    expect(delays).toEqual([1, 2]);
    expect(rec.statuses.filter((s) => s.reason)).toEqual([
      { status: 'TIMEOUT', retries: 1, reason: '408' },
      { status: 'OPENING', retries: 2, reason: '428' },
    ]);
    fake.last().open('5511977776666');
    await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
    fake.last().ev.emit('connection.update', disconnect(428));
    await vi.waitFor(() => expect(fake.sockets).toHaveLength(4));
    expect(delays).toEqual([1, 2, 1]); // an open connection resets the back-off
    await handle.stop();
  });

  it('stop ends the socket and keeps the credentials; logout logs out and forgets them', async () => {
    const fake = fakeSocketFactory();
    const session = spec();
    const first = await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    fake.last().open('5511977776666');
    await first.stop();
    expect(fake.last().end).toHaveBeenCalledTimes(1);
    expect((await authItems(session.companyId, session.connectionId)).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.sockets).toHaveLength(1);

    const rec = recorder();
    const second = await provider(stores, { makeSocket: fake.makeSocket }).start(session, rec.callbacks);
    fake.last().open('5511977776666');
    await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
    await second.logout();
    expect(fake.last().logout).toHaveBeenCalledTimes(1);
    expect((await authItems(session.companyId, session.connectionId)).size).toBe(0);
    expect(rec.statuses.at(-1)).toMatchObject({ status: 'DISCONNECTED', reason: 'logout' });
  });
  it('logout of a registered session that is still connecting waits for it to open, then logs out on WhatsApp', async () => {
    const fake = fakeSocketFactory();
    const session = spec();
    const first = await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    fake.last().ev.emit('creds.update', { registered: true });
    await first.stop();

    const second = await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    const sock = fake.last();
    const loggingOut = second.logout();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sock.logout).not.toHaveBeenCalled();
    sock.open('5511977776666');
    await loggingOut;
    expect(sock.logout).toHaveBeenCalledTimes(1);
    expect((await authItems(session.companyId, session.connectionId)).size).toBe(0);
  });
});

describe('auth state in DynamoDB', () => {
  it('stores creds and each signal key as its own item, writes only changed ids, and a second start reads them back', async () => {
    const fake = fakeSocketFactory();
    const session = spec();
    const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    const { auth } = fake.last().config;
    const preKey = { public: Buffer.from('a'.repeat(32)), private: Buffer.from('b'.repeat(32)) };
    const data: SignalDataSet = {
      'pre-key': { '1': preKey, '2': preKey, '3': preKey },
      session: { '5511977776666.0': new Uint8Array([9, 8, 7]) },
      'lid-mapping': { '5511977776666': '123456789012345' },
    };
    await auth.keys.set(data);
    fake.last().ev.emit('creds.update', { registered: true, me: { id: '5511977776666:7@s.whatsapp.net', name: 'Loja' } });

    await vi.waitFor(async () => {
      const creds = (await authItems(session.companyId, session.connectionId)).get(`WAAUTH#${session.connectionId}#creds`);
      expect(JSON.parse(creds?.data as string).registered).toBe(true);
    });
    const items = await authItems(session.companyId, session.connectionId);
    const prefix = `WAAUTH#${session.connectionId}#`;
    expect([...items.keys()].sort()).toEqual(
      ['creds', 'lid-mapping#5511977776666', 'pre-key#1', 'pre-key#2', 'pre-key#3', 'session#5511977776666.0'].map((sk) => prefix + sk),
    );
    expect(JSON.parse(items.get(`${prefix}pre-key#2`)!.data as string, BufferJSON.reviver)).toEqual(preKey);
    expect(items.get(`${prefix}creds`)!.data).not.toContain('pre-key');

    // A set names only what changed: a deleted pre-key (null) removes just that item.
    await auth.keys.set({ 'pre-key': { '1': null } });
    const after = await authItems(session.companyId, session.connectionId);
    expect(after.has(`${prefix}pre-key#1`)).toBe(false);
    expect(after.get(`${prefix}pre-key#2`)).toEqual(items.get(`${prefix}pre-key#2`));
    await handle.stop();

    // Second start: the socket gets the stored creds, and keys are read back from the table.
    await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    const reread = fake.last().config.auth;
    expect(reread).not.toBe(auth);
    expect(reread.creds.registered).toBe(true);
    expect(reread.creds.me?.id).toBe('5511977776666:7@s.whatsapp.net');
    expect(Buffer.from(reread.creds.noiseKey.private)).toEqual(Buffer.from(auth.creds.noiseKey.private));
    expect(await reread.keys.get('pre-key', ['1', '2', '3'])).toEqual({ '2': preKey, '3': preKey });
    expect(await reread.keys.get('session', ['5511977776666.0'])).toEqual({ '5511977776666.0': Buffer.from([9, 8, 7]) });
    expect(await reread.keys.get('lid-mapping', ['5511977776666'])).toEqual({ '5511977776666': '123456789012345' });
  });

  it('stores a large value (app-state hashes of a big account) gzipped, under the item size limit, and reads it back', async () => {
    const fake = fakeSocketFactory();
    const session = spec();
    await provider(stores, { makeSocket: fake.makeSocket }).start(session, recorder().callbacks);
    const { keys } = fake.last().config.auth;
    const indexValueMap = Object.fromEntries(
      Array.from({ length: 3000 }, (_, i) => [`index-${i}`.padEnd(44, '='), { valueMac: Buffer.alloc(32, i % 256) }]),
    );
    const state = { version: 42, hash: Buffer.alloc(128, 7), indexValueMap };
    await keys.set({ 'app-state-sync-version': { regular_high: state } });

    const item = (await authItems(session.companyId, session.connectionId)).get(
      `WAAUTH#${session.connectionId}#app-state-sync-version#regular_high`,
    );
    expect(item).toBeDefined();
    expect(item!.data).toBeUndefined();
    expect((item!.gz as Uint8Array).byteLength).toBeLessThan(100_000);
    expect(await keys.get('app-state-sync-version', ['regular_high'])).toEqual({ regular_high: state });
  });

  it('fresh start clears every WAAUTH item of the connection and only that connection', async () => {
    const fake = fakeSocketFactory();
    const session = spec();
    const other = spec();
    for (const s of [session, other]) {
      const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(s, recorder().callbacks);
      await fake.last().config.auth.keys.set({ session: { a: new Uint8Array([1]) } });
      await handle.stop();
    }
    await provider(stores, { makeSocket: fake.makeSocket }).start({ ...session, fresh: true }, recorder().callbacks);
    expect([...(await authItems(session.companyId, session.connectionId)).keys()]).toEqual([`WAAUTH#${session.connectionId}#creds`]);
    expect(fake.last().config.auth.creds.registered).toBe(false);
    expect((await authItems(other.companyId, other.connectionId)).size).toBe(2);
  });
});

describe('the real makeWASocket', () => {
  it('is created with the DynamoDB auth state and closes cleanly offline (408), then retries', async () => {
    const closedPort = await freePort();
    const rec = recorder();
    const session = spec();
    const handle = await provider(stores, {
      reconnectDelayMs: () => 60_000,
      socketConfig: { waWebSocketUrl: `ws://127.0.0.1:${closedPort}/ws/chat` },
    }).start(session, rec.callbacks);

    await vi.waitFor(() => expect(rec.statuses.at(-1)).toEqual({ status: 'TIMEOUT', retries: 1, reason: '408' }), { timeout: 10_000 });
    const creds = (await authItems(session.companyId, session.connectionId)).get(`WAAUTH#${session.connectionId}#creds`);
    expect(JSON.parse(creds?.data as string, BufferJSON.reviver).noiseKey.private).toBeInstanceOf(Buffer);
    await handle.stop();
  });
});
