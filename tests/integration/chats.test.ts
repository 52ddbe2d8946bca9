/**
 * Internal chat over the local stack, as clients see it through the gateways: a chat's
 * `company-{id}-chat` events reach its members' sockets and no other socket, neither a colleague of
 * the same company who is not a member nor another tenant; unread counts as the members read them;
 * the gates: a plan without useInternalChat (403), a forged token (401). The route-by-route attacks
 * (another tenant's ids, garbage in every field and parameter) are in cross-tenant.test.ts and
 * fuzz.test.ts; functions/test/chats-routes.test.ts covers the rules one by one.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { Chat, ChatEvent, ChatList } from '@conversa/functions/contracts/chats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, PASSWORD, superLogin, type Tenant } from './tenants.ts';
import { connectSocket, type Frame, ok, type Socket } from './whatsapp-kit.ts';

let call: Call;
let superToken: string;
let a: Tenant;
let b: Tenant;
let outsider: { id: number; token: string };
const sockets: Socket[] = [];

const chatFrame = (companyId: number, chatId: number, action?: string) => (frame: Frame) =>
  frame.event === channels.chat(companyId) &&
  (!action || (frame.data as ChatEvent).action === action) &&
  ((frame.data as { chat?: Chat }).chat?.id ?? (frame.data as { id?: number }).id) === chatId;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  [a, b] = await Promise.all([createTenant(call, superToken, planId, 'chat-a'), createTenant(call, superToken, planId, 'chat-b')]);
  const email = `outsider@${a.marker}.test`;
  const made = await ok<{ id: number }>(call, 'POST', '/users', {
    token: a.admin.token,
    body: { name: 'Outsider', email, password: PASSWORD, profile: 'user' },
  });
  outsider = { id: made.id, token: await superLogin(call, { email, password: PASSWORD }) };
});

afterAll(() => {
  for (const socket of sockets) socket.close();
});

async function socketOf(token: string): Promise<Socket> {
  const socket = await connectSocket(inject('wsUrl'), token);
  sockets.push(socket);
  return socket;
}

describe('internal chat over the local stack', () => {
  it("delivers a chat's events to its members' sockets only", async () => {
    const [admin, member, colleague, stranger] = await Promise.all([
      socketOf(a.admin.token),
      socketOf(a.user.token),
      socketOf(outsider.token),
      socketOf(b.admin.token),
    ]);
    const chat = await ok<Chat>(call, 'POST', '/chats', { token: a.admin.token, body: { title: 'Só nós', users: [{ id: a.user.id }] } });
    await ok(call, 'POST', `/chats/${chat.id}/messages`, { token: a.admin.token, body: { message: 'Segredo da equipe 🤫' } });

    const received = await member.waitFor('new-message', chatFrame(a.companyId, chat.id, 'new-message'));
    expect(received.data).toMatchObject({
      action: 'new-message',
      newMessage: { senderId: a.admin.id, message: 'Segredo da equipe 🤫' },
      chat: { id: chat.id, lastMessage: 'Segredo da equipe 🤫' },
    });
    const unread = (received.data as { chat: Chat }).chat.users.find((u) => u.userId === a.user.id);
    expect(unread?.unreads).toBe(1);
    await admin.waitFor('own new-message', chatFrame(a.companyId, chat.id, 'new-message'));

    // A later event to the colleague and to the other tenant's admin, on chats of their own, is the
    // barrier: it was published after the secret one, so had they been sent that, it would be here.
    const colleagues = await ok<Chat>(call, 'POST', '/chats', { token: outsider.token, body: { title: 'Meu', users: [] } });
    const theirs = await ok<Chat>(call, 'POST', '/chats', { token: b.admin.token, body: { title: 'De B', users: [] } });
    await colleague.waitFor('own chat', chatFrame(a.companyId, colleagues.id));
    await stranger.waitFor('own chat', chatFrame(b.companyId, theirs.id));
    expect(colleague.frames.filter(chatFrame(a.companyId, chat.id))).toEqual([]);
    expect(stranger.frames.filter((frame) => frame.event === channels.chat(a.companyId))).toEqual([]);
    expect(JSON.stringify([...colleague.frames, ...stranger.frames])).not.toContain('Segredo');

    // The member reads it: the count clears for them, on their socket too.
    const read = await ok<Chat>(call, 'POST', `/chats/${chat.id}/read`, { token: a.user.token, body: { userId: a.user.id } });
    expect(read.users.find((u) => u.userId === a.user.id)?.unreads).toBe(0);
    const list = await ok<ChatList>(call, 'GET', '/chats', { token: a.user.token });
    expect(list.unreadChats).toBe(0);

    // The colleague does not reach it by id; the other tenant's same id is its own chat, never this one.
    expect((await call('GET', `/chats/${chat.id}/messages`, { token: outsider.token })).status).toBe(404);
    expect((await call('POST', `/chats/${chat.id}/messages`, { token: outsider.token, body: { message: 'entrei?' } })).status).toBe(404);
    const sameId = await call('GET', `/chats/${chat.id}/messages`, { token: b.admin.token });
    expect(sameId.text).not.toContain('Segredo');
  });

  it('is closed to a plan without useInternalChat and to a forged token', async () => {
    expect((await call('GET', '/chats', { token: `${a.user.token.slice(0, -4)}AAAA` })).status).toBe(401);
    expect((await call('GET', '/chats')).status).toBe(401);
    const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
      token: superToken,
      body: { name: `Sem chat ${randomInt(1e9)}`, useInternalChat: false },
    });
    const without = await createTenant(call, superToken, plan.id, 'chat-off');
    for (const [method, path] of [
      ['GET', '/chats'],
      ['POST', '/chats'],
      ['GET', '/chats/1/messages'],
      ['POST', '/chats/1/read'],
    ] as const) {
      const res = await call(method, path, { token: without.user.token, body: { title: 'x' } });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useInternalChat' });
    }
  });
});
