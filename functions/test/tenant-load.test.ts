/**
 * The inbound load counter's failure paths (domain/inbound/tenant-load.ts), with its storage replaced:
 * a company read that fails while the window counter is being written must fail the count (the
 * consumer logs it and goes on), never escape as an unhandled rejection that would end the Lambda.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const storage = vi.hoisted(() => ({
  companyRead: async (): Promise<{ listShards?: number } | undefined> => undefined,
  windowCount: 0,
}));
vi.mock('../src/storage/companies/companies.ts', () => ({
  getCompanyCached: () => storage.companyRead(),
  raiseListShards: async () => true,
}));
vi.mock('../src/storage/rate-limits.ts', () => ({
  addToWindow: async (_companyId: number, _scope: string, count: number) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    storage.windowCount += count;
    return { count: storage.windowCount, resetInSeconds: 10, key: { pk: 'x', sk: 'y' } };
  },
}));

const { observeInboundLoad } = await import('../src/domain/inbound/tenant-load.ts');

afterEach(() => {
  storage.companyRead = async () => undefined;
});

describe('inbound load counter', () => {
  it('fails the count when the company read fails during the counter write, with no unhandled rejection', async () => {
    // Prepare: the company read fails at once; the counter write takes 20 ms.
    storage.companyRead = async () => {
      throw new Error('throttled');
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Act + Assess
      await expect(observeInboundLoad(new Map([[7001, 25]]))).rejects.toThrow('throttled');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('raises nothing for a tenant below the first step, and raises one past it', async () => {
    storage.windowCount = 0;
    expect(await observeInboundLoad(new Map([[7002, 25]]), { now: 0 })).toEqual([]);
    expect(await observeInboundLoad(new Map([[7002, 1000]]), { now: 1 })).toEqual([7002]);
  });
});
