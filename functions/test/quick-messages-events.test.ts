/**
 * Quick message changes reach the company's sockets on `company-{id}-quickmessage` (SPEC 7
 * "Realtime"), carrying the id only: a private quick message's text must not go to colleagues.
 * Storage and the publisher are replaced by in-memory fakes (no network).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuickMessageRecord } from '../src/storage/quick-messages.ts';

const published: { companyId: number; event: string; data: unknown }[] = [];
const records = new Map<number, QuickMessageRecord>();

vi.mock('../src/realtime/publisher.ts', () => ({
  publishToCompany: async (companyId: number, event: string, data: unknown) => {
    published.push({ companyId, event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

vi.mock('../src/storage/quick-messages.ts', () => ({
  newQuickMessageId: async () => records.size + 1,
  createQuickMessage: async (record: QuickMessageRecord) => {
    records.set(record.id, record);
    return record;
  },
  getQuickMessage: async (_companyId: number, id: number) => records.get(id),
  updateQuickMessage: async (_companyId: number, id: number, patch: Partial<QuickMessageRecord>) => {
    const next = { ...(records.get(id) as QuickMessageRecord), ...patch };
    records.set(id, next);
    return next;
  },
  deleteQuickMessage: async (_companyId: number, id: number) => {
    records.delete(id);
  },
  listQuickMessages: async () => [...records.values()],
}));

const { createQuickMessageFor, deleteQuickMessageFor, updateQuickMessageFor } = await import(
  '../src/domain/quick-messages/quick-messages.ts'
);

const author = { companyId: 7, userId: 3, profile: 'user', super: false } as Parameters<typeof createQuickMessageFor>[0];

beforeEach(() => {
  published.length = 0;
  records.clear();
});

describe('quick message events', () => {
  it('publishes create, update and delete on the company channel with the id only', async () => {
    // Prepare / Act
    const made = await createQuickMessageFor(author, { shortcode: 'oi', message: 'segredo', geral: false, status: true });
    await updateQuickMessageFor(author, made.id, { message: 'outro segredo' });
    await deleteQuickMessageFor(author, made.id);

    // Assess
    expect(published).toEqual([
      { companyId: 7, event: 'company-7-quickmessage', data: { action: 'create', id: made.id } },
      { companyId: 7, event: 'company-7-quickmessage', data: { action: 'update', id: made.id } },
      { companyId: 7, event: 'company-7-quickmessage', data: { action: 'delete', id: made.id } },
    ]);
    expect(JSON.stringify(published)).not.toContain('segredo');
  });

  it('publishes nothing when an update changes nothing', async () => {
    const made = await createQuickMessageFor(author, { shortcode: 'oi', message: 'x', geral: false, status: true });
    published.length = 0;
    await updateQuickMessageFor(author, made.id, {});
    expect(published).toEqual([]);
  });
});
