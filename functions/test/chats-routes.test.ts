/**
 * Internal chat over DynamoDB Local + cognito-local (SPEC 2 "Internal chat", 3, 4 "Badges", 7
 * "/chats"): only members see a chat (another member of the company and another tenant get 404),
 * members chosen among the company's users only, unread counts kept per member as messages arrive
 * and zeroed by a read, messages newest first with a signed cursor, the owner or an admin edits,
 * events to the members only (checked against the audience a socket is matched with), the
 * useInternalChat gate, and garbage in every field (400 naming it).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { matches } from '#realtime/audience';
import type { ConnectionRecord } from '#storage/ws-connections';
import { call, type SeededUser, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

const published: { companyId: number; event: string; data: { action: string; id?: number }; target: Parameters<typeof matches>[0] }[] = [];
vi.mock(import('../src/realtime/publisher.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  publish: async (companyId: number, event: string, data: unknown, target: unknown) => {
    published.push({ companyId, event, data: data as { action: string }, target: target as Parameters<typeof matches>[0] });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

let stack: Stack;
let t: Tenant;
let other: Tenant;
let ana: SeededUser;
let bia: SeededUser;
let caio: SeededUser;

beforeAll(async () => {
  stack = await startStack();
  [t, other] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  [ana, bia, caio] = await Promise.all([t.addUser('user'), t.addUser('user'), t.addUser('user')]);
}, 120_000);
afterAll(async () => stack?.stop());

/** A plain user's socket of `companyId`, as $connect records it. */
const socketOf = (companyId: number, userId: number): ConnectionRecord =>
  ({ companyId, userId, profile: 'user', super: false, queueIds: [], allTicket: 'disabled' }) as unknown as ConnectionRecord;
/** The user ids of `candidates` that an event would reach. */
const reached = (event: (typeof published)[number], companyId: number, candidates: number[]) =>
  candidates.filter((userId) => matches(event.target, socketOf(companyId, userId)));

const newChat = async (token: string, title: string, users: unknown[]) => {
  const res = await call('POST /chats', { token, body: { title, users } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; users: { userId: number; unreads: number }[] };
};

describe('internal chat', () => {
  it('shows a chat to its members only, named users of the same company', async () => {
    const chat = await newChat(ana.token, 'Plantão', [{ id: bia.id, name: 'x' }]);
    expect(chat).toMatchObject({ title: 'Plantão', ownerId: ana.id, lastMessage: '' });
    expect(chat.users.map((u) => u.userId)).toEqual([ana.id, bia.id]);

    // Bia sees it, Caio (same company, not a member) and another tenant's admin do not.
    expect((await call('GET /chats', { token: bia.token })).body.records.map((c: { id: number }) => c.id)).toContain(chat.id);
    expect((await call('GET /chats', { token: caio.token })).body.records.map((c: { id: number }) => c.id)).not.toContain(chat.id);
    for (const token of [caio.token, other.admin.token]) {
      const params = { id: chat.id };
      expect((await call('GET /chats/{id}', { token, params })).status).toBe(404);
      expect((await call('GET /chats/{id}/messages', { token, params })).status).toBe(404);
      expect((await call('POST /chats/{id}/messages', { token, params, body: { message: 'oi' } })).status).toBe(404);
      expect((await call('POST /chats/{id}/read', { token, params, body: {} })).status).toBe(404);
      expect((await call('PUT /chats/{id}', { token, params, body: { title: 'meu' } })).status).toBe(404);
      expect((await call('DELETE /chats/{id}', { token, params })).status).toBe(404);
    }
    // Even the company's admin sees only the chats they are in.
    expect((await call('GET /chats/{id}', { token: t.admin.token, params: { id: chat.id } })).status).toBe(404);

    // A user of another company cannot be made a member: refused, nothing written.
    const before = (await call('GET /chats', { token: ana.token })).body.records.length;
    const foreign = await call('POST /chats', { token: ana.token, body: { title: 'Vazamento', users: [bia.id, other.admin.id + 10_000] } });
    expect(foreign).toMatchObject({ status: 400, body: { error: 'ERR_NO_USER_FOUND', field: 'users.1' } });
    expect((await call('GET /chats', { token: ana.token })).body.records).toHaveLength(before);
  });

  it('counts unreads per member as messages arrive, clears them on read, and tells members only', async () => {
    const chat = await newChat(ana.token, 'Vendas', [bia.id]);
    published.length = 0;
    const sent = await call('POST /chats/{id}/messages', {
      token: ana.token,
      params: { id: chat.id },
      body: { message: '  Bom dia 😀  ' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ chatId: chat.id, senderId: ana.id, sender: { id: ana.id }, message: 'Bom dia 😀' });
    await call('POST /chats/{id}/messages', { token: ana.token, params: { id: chat.id }, body: { message: 'Reunião às 10' } });

    const biaList = (await call('GET /chats', { token: bia.token })).body;
    const seen = biaList.records.find((c: { id: number }) => c.id === chat.id);
    expect(seen.lastMessage).toBe('Reunião às 10');
    expect(seen.users).toEqual([
      { userId: ana.id, unreads: 0, user: { id: ana.id, name: expect.any(String) } },
      { userId: bia.id, unreads: 2, user: { id: bia.id, name: expect.any(String) } },
    ]);
    expect(biaList.unreadChats).toBeGreaterThanOrEqual(1);

    // Every event reached Ana and Bia and nobody else of the company.
    expect(published.map((p) => p.data.action)).toEqual(['new-message', 'new-message']);
    for (const event of published) {
      expect(event.event).toBe(`company-${t.companyId}-chat`);
      expect(reached(event, t.companyId, [ana.id, bia.id, caio.id, t.admin.id])).toEqual([ana.id, bia.id]);
    }

    published.length = 0;
    expect((await call('POST /chats/{id}/read', { token: bia.token, params: { id: chat.id }, body: { userId: ana.id } })).status).toBe(403);
    const read = await call('POST /chats/{id}/read', { token: bia.token, params: { id: chat.id }, body: { userId: bia.id } });
    expect(read.status).toBe(200);
    expect(read.body.users.find((u: { userId: number }) => u.userId === bia.id).unreads).toBe(0);
    const after = (await call('GET /chats', { token: bia.token })).body;
    expect(after.records.find((c: { id: number }) => c.id === chat.id).users[1].unreads).toBe(0);
    expect(reached(published[0] as (typeof published)[number], t.companyId, [ana.id, bia.id, caio.id])).toEqual([bia.id]);
  });

  it('stores a message in a chat whose owner is its only member (no other unread to count)', async () => {
    const chat = await newChat(ana.token, 'Lembretes', []);
    expect(chat.users.map((u) => u.userId)).toEqual([ana.id]);
    const sent = await call('POST /chats/{id}/messages', { token: ana.token, params: { id: chat.id }, body: { message: 'Comprar café' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ chatId: chat.id, senderId: ana.id, message: 'Comprar café' });
    const seen = await call('GET /chats/{id}', { token: ana.token, params: { id: chat.id } });
    expect(seen.body).toMatchObject({ lastMessage: 'Comprar café', users: [{ userId: ana.id, unreads: 0 }] });
    const page = await call('GET /chats/{id}/messages', { token: ana.token, params: { id: chat.id } });
    expect(page.body.records.map((m: { message: string }) => m.message)).toEqual(['Comprar café']);
  });

  it('keeps every unread when members send at once (one conditional write per message, no lost updates)', async () => {
    const chat = await newChat(ana.token, 'Corrida', [bia.id, caio.id]);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST /chats/{id}/messages', { token: i % 2 ? ana.token : bia.token, params: { id: chat.id }, body: { message: `r${i}` } }),
      ),
    );
    const seen = await call('GET /chats/{id}', { token: caio.token, params: { id: chat.id } });
    const unreads = Object.fromEntries(seen.body.users.map((u: { userId: number; unreads: number }) => [u.userId, u.unreads]));
    expect(unreads).toEqual({ [ana.id]: 4, [bia.id]: 4, [caio.id]: 8 });
  });

  it('pages messages newest first with a cursor bound to the chat', async () => {
    const chat = await newChat(ana.token, 'Histórico', [bia.id]);
    for (let i = 1; i <= 23; i++)
      await call('POST /chats/{id}/messages', {
        token: i % 2 ? ana.token : bia.token,
        params: { id: chat.id },
        body: { message: `m${i}` },
      });
    const first = await call('GET /chats/{id}/messages', { token: bia.token, params: { id: chat.id } });
    expect(first.body.records.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${23 - i}`));
    expect(first.body.hasMore).toBe(true);
    const second = await call('GET /chats/{id}/messages', {
      token: bia.token,
      params: { id: chat.id },
      query: { cursor: first.body.cursor },
    });
    expect(second.body).toEqual({ records: expect.any(Array), hasMore: false });
    expect(second.body.records.map((m: { message: string }) => m.message)).toEqual(['m3', 'm2', 'm1']);

    // The cursor of this chat does not open another chat's page; made-up cursors are a 400.
    const elsewhere = await newChat(bia.token, 'Outra', [ana.id]);
    for (const cursor of [first.body.cursor, 'eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA', 'garbage', `${first.body.cursor}x`]) {
      const res = await call('GET /chats/{id}/messages', { token: bia.token, params: { id: elsewhere.id }, query: { cursor } });
      expect(res.status, cursor).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'cursor' });
    }
  });

  it('lets the owner or an admin member edit and delete; a removed member loses the chat and is told', async () => {
    const chat = await newChat(ana.token, 'Equipe', [bia.id, caio.id, t.admin.id]);
    expect((await call('PUT /chats/{id}', { token: bia.token, params: { id: chat.id }, body: { title: 'Minha' } })).status).toBe(403);
    expect((await call('DELETE /chats/{id}', { token: bia.token, params: { id: chat.id } })).status).toBe(403);

    published.length = 0;
    // The owner stays a member even when left out of the list.
    const edited = await call('PUT /chats/{id}', {
      token: ana.token,
      params: { id: chat.id },
      body: { title: 'Equipe B', users: [bia.id, t.admin.id] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.title).toBe('Equipe B');
    expect(edited.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([ana.id, bia.id, t.admin.id].sort());
    const deleteEvent = published.find((p) => p.data.action === 'delete');
    expect(deleteEvent?.data).toEqual({ action: 'delete', id: chat.id });
    expect(reached(deleteEvent as (typeof published)[number], t.companyId, [ana.id, bia.id, caio.id])).toEqual([caio.id]);
    expect((await call('GET /chats/{id}', { token: caio.token, params: { id: chat.id } })).status).toBe(404);
    expect(
      (await call('POST /chats/{id}/messages', { token: caio.token, params: { id: chat.id }, body: { message: 'ainda?' } })).status,
    ).toBe(404);

    // An admin member may rename and delete.
    expect((await call('PUT /chats/{id}', { token: t.admin.token, params: { id: chat.id }, body: { title: 'Admin' } })).body.title).toBe(
      'Admin',
    );
    await call('POST /chats/{id}/messages', { token: bia.token, params: { id: chat.id }, body: { message: 'tchau' } });
    expect((await call('DELETE /chats/{id}', { token: t.admin.token, params: { id: chat.id } })).status).toBe(204);
    for (const token of [ana.token, bia.token]) {
      expect((await call('GET /chats/{id}', { token, params: { id: chat.id } })).status).toBe(404);
      expect((await call('GET /chats', { token })).body.records.map((c: { id: number }) => c.id)).not.toContain(chat.id);
    }
  });

  it('searches by title, ignoring case and accents', async () => {
    const lonely = await seedTenant(stack);
    await newChat(lonely.admin.token, 'Financeiro', []);
    await newChat(lonely.admin.token, 'Ação comercial', []);
    const found = await call('GET /chats', { token: lonely.admin.token, query: { searchParam: 'ACAO' } });
    expect(found.body.records.map((c: { title: string }) => c.title)).toEqual(['Ação comercial']);
    expect(found.body).toMatchObject({ hasMore: false, unreadChats: 0 });
  });

  it('is closed without useInternalChat, without a valid token, and refuses garbage naming the field', async () => {
    const gated = await seedTenant(stack, { plan: { useInternalChat: false } });
    for (const key of ['GET /chats', 'POST /chats']) {
      const res = await call(key, { token: gated.admin.token, body: { title: 'x' } });
      expect(res).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    }
    expect((await call('GET /chats')).status).toBe(401);
    expect((await call('GET /chats', { token: `${ana.token.slice(0, -4)}AAAA` })).status).toBe(401);

    const chat = await newChat(ana.token, 'Alvo', [bia.id]);
    const bad: [string, Record<string, unknown>, string][] = [
      ['POST /chats', { body: {} }, 'title'],
      ['POST /chats', { body: { title: '   ' } }, 'title'],
      ['POST /chats', { body: { title: 'x'.repeat(101) } }, 'title'],
      ['POST /chats', { body: { title: 'x', users: 'todos' } }, 'users'],
      ['POST /chats', { body: { title: 'x', users: [-1] } }, 'users.0'],
      ['POST /chats', { body: { title: 'x', users: [{ id: 'abc' }] } }, 'users.0'],
      ['POST /chats', { body: { title: 'x', users: Array.from({ length: 60 }, (_, i) => i + 1) } }, 'users'],
      ['PUT /chats/{id}', { params: { id: chat.id }, body: { title: 7 } }, 'title'],
      ['PUT /chats/{id}', { params: { id: 'abc' }, body: {} }, 'id'],
      ['GET /chats', { query: { pageNumber: 'x' } }, 'pageNumber'],
      ['GET /chats', { query: { searchParam: 'y'.repeat(200) } }, 'searchParam'],
      ['GET /chats/{id}/messages', { params: { id: chat.id }, query: { cursor: 'z'.repeat(600) } }, 'cursor'],
      ['POST /chats/{id}/messages', { params: { id: chat.id }, body: { message: '' } }, 'message'],
      ['POST /chats/{id}/messages', { params: { id: chat.id }, body: { message: { $ne: 1 } } }, 'message'],
      ['POST /chats/{id}/messages', { params: { id: chat.id }, body: { message: 'x'.repeat(5001) } }, 'message'],
      ['POST /chats/{id}/read', { params: { id: chat.id }, body: { userId: 'me' } }, 'userId'],
      ['DELETE /chats/{id}', { params: { id: '-3' } }, 'id'],
    ];
    for (const [key, options, field] of bad) {
      const res = await call(key, { token: ana.token, ...options });
      expect(res.status, `${key} ${JSON.stringify(options).slice(0, 80)}`).toBe(400);
      expect(res.body.field).toBe(field);
    }
    // Nothing of the refused writes was stored.
    const messages = await call('GET /chats/{id}/messages', { token: ana.token, params: { id: chat.id } });
    expect(messages.body.records).toEqual([]);
  });
});
