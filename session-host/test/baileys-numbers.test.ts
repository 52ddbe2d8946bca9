/**
 * Baileys provider, number checks: one onWhatsApp (USync) query per batch, the accounts it finds
 * mapped back to the numbers asked (a Brazilian mobile found under its other form counts), nothing
 * asked of a socket that is not open.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeSocketFactory, provider, recorder, type Stores, startStores } from './fixtures/baileys/harness.ts';

let stores: Stores;
beforeAll(async () => {
  stores = await startStores();
}, 60_000);
afterAll(async () => {
  await stores?.stop();
});

let nextConnection = 700;

describe('checkNumbers', () => {
  it('asks WhatsApp once for the batch and answers the numbers that have an account', async () => {
    const fake = fakeSocketFactory();
    const rec = recorder();
    const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(
      { companyId: 7, connectionId: nextConnection++ },
      rec.callbacks,
    );
    const sock = fake.last();
    // Not open yet: nothing is asked, the check fails (the host retries or leaves the numbers unchecked).
    await expect(handle.checkNumbers?.(['5511987654321'])).rejects.toThrow('ERR_WAPP_NOT_INITIALIZED');
    sock.open('5511900001111');
    await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
    sock.onWhatsApp.mockResolvedValueOnce([
      { jid: '5511987654321@s.whatsapp.net', exists: true },
      // The older 8-digit form of a Brazilian mobile asked with its ninth digit.
      { jid: '552187654321@s.whatsapp.net', exists: true },
      { jid: '14155550123@s.whatsapp.net', exists: false },
    ]);
    const asked = ['5511987654321', '5521987654321', '14155550123', '0011987654321'];
    expect(await handle.checkNumbers?.(asked)).toEqual(['5511987654321', '5521987654321']);
    expect(sock.onWhatsApp).toHaveBeenCalledTimes(1);
    expect(sock.onWhatsApp).toHaveBeenCalledWith(...asked);
    expect(await handle.checkNumbers?.([])).toEqual([]);
    expect(sock.onWhatsApp).toHaveBeenCalledTimes(1);
  });
});
