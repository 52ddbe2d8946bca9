/**
 * Queue integration changes reach the company's sockets on `company-{id}-queueIntegration` (SPEC 7
 * "Realtime"), with the id only: the signing key and credentials never travel to every socket of the
 * company (plain users included). Storage, the reference lists and the publisher are in-memory fakes.
 */
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueIntegrationRecord } from '../src/storage/queue-integrations.ts';

process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');

const published: { companyId: number; event: string; data: unknown }[] = [];
const records = new Map<number, QueueIntegrationRecord>();

vi.mock('../src/realtime/publisher.ts', () => ({
  publishToCompany: async (companyId: number, event: string, data: unknown) => {
    published.push({ companyId, event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));
vi.mock('../src/storage/queues/queues.ts', () => ({ listQueues: async () => [] }));
vi.mock('../src/storage/connections.ts', () => ({ listConnections: async () => [] }));
vi.mock('../src/storage/queue-integrations.ts', () => ({
  newQueueIntegrationId: async () => records.size + 1,
  createQueueIntegration: async (record: QueueIntegrationRecord) => {
    records.set(record.id, record);
    return record;
  },
  getQueueIntegration: async (_companyId: number, id: number) => records.get(id),
  updateQueueIntegration: async (_companyId: number, id: number, patch: Partial<QueueIntegrationRecord>) => {
    const next = { ...(records.get(id) as QueueIntegrationRecord), ...patch };
    records.set(id, next);
    return next;
  },
  deleteQueueIntegration: async (_companyId: number, id: number) => {
    records.delete(id);
  },
  listQueueIntegrations: async () => [...records.values()],
}));

const { createIntegrationFor, deleteIntegrationFor, updateIntegrationFor } = await import(
  '../src/domain/queue-integrations/queue-integrations.ts'
);
const { createIntegrationSchema, updateIntegrationSchema } = await import('../src/contracts/queue-integrations.ts');

beforeEach(() => {
  published.length = 0;
  records.clear();
});

describe('queue integration events', () => {
  it('publishes create, update and delete on the company channel with the id only', async () => {
    // Prepare / Act
    const made = await createIntegrationFor(
      7,
      createIntegrationSchema.parse({ type: 'webhook', name: 'Hook', urlN8N: 'https://h.example/x' }),
    );
    await updateIntegrationFor(7, made.id, updateIntegrationSchema.parse({ name: 'Hook 2' }));
    await deleteIntegrationFor(7, made.id);
    // Assess
    expect(published).toEqual([
      { companyId: 7, event: 'company-7-queueIntegration', data: { action: 'create', id: made.id } },
      { companyId: 7, event: 'company-7-queueIntegration', data: { action: 'update', id: made.id } },
      { companyId: 7, event: 'company-7-queueIntegration', data: { action: 'delete', id: made.id } },
    ]);
    expect(JSON.stringify(published)).not.toContain(made.signingSecret);
  });

  it('publishes nothing when a write is refused', async () => {
    await expect(
      createIntegrationFor(7, createIntegrationSchema.parse({ type: 'typebot', name: 'Bot', urlN8N: 'https://t.example' })),
    ).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
    expect(published).toEqual([]);
    expect(records.size).toBe(0);
  });
});
