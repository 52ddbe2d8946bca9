/**
 * The first day's checklist (issue 25 "Guide the first day") over DynamoDB Local + cognito-local:
 * a fresh company has every step to do, and each act a new owner makes ticks exactly its step,
 * read from the company's data (a connection CONNECTED, a queue, a second user, a conversation a
 * user took, a quick reply, opening hours in force). Admins only, the token's company only, the
 * dismissal kept server-side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCompanySchedules } from '#contracts/schedules';
import { updateConnectionSession } from '#storage/connections';
import { createConnection, type Env, invoke, seedTicket, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;
let t: Tenant;

beforeAll(async () => {
  env = await startEnv();
  t = await seedTenant(env.stack);
}, 120_000);
afterAll(async () => env?.stop());

const read = (token: string) => invoke('GET /onboarding', { token });
/** The keys of the steps done, as the checklist shows them ticked. */
async function ticked(token = t.admin.token): Promise<string[]> {
  const res = await read(token);
  expect(res.status).toBe(200);
  return res.body.steps.filter((step: { done: boolean }) => step.done).map((step: { key: string }) => step.key);
}

describe('GET /onboarding', () => {
  it('ticks each step of a new company as the owner does it', async () => {
    const fresh = await read(t.admin.token);
    expect(fresh.body).toEqual({
      steps: ['connection', 'queue', 'attendant', 'conversation', 'quickReply', 'businessHours'].map((key) => ({ key, done: false })),
      dismissed: false,
    });

    const queue = await invoke('POST /queue', { token: t.admin.token, json: { name: 'Vendas', color: '#123456' } });
    expect(queue.status).toBe(201);
    expect(await ticked()).toEqual(['queue']);

    // A connection counts once its phone is connected, not when it is only created.
    const connection = await createConnection(t);
    expect(await ticked()).toEqual(['queue']);
    await updateConnectionSession(t.companyId, connection.id, { status: 'CONNECTED' });
    expect(await ticked()).toEqual(['connection', 'queue']);

    const attendant = await t.addUser('user');
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant']);

    // A conversation waiting for someone is not yet answered, nor once accepted, nor with a private
    // note: a reply the customer receives, typed by a user (the owner here), answers it.
    const ticket = await seedTicket(t, connection.id);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant']);
    const accepted = await invoke('PUT /tickets/{id}', {
      token: t.admin.token,
      params: { id: ticket.id },
      json: { status: 'open', userId: t.admin.id },
    });
    expect(accepted.status).toBe(200);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant']);
    const send = (json: Record<string, unknown>) =>
      invoke('POST /messages/{id}', { token: t.admin.token, params: { id: ticket.id }, json });
    expect((await send({ body: 'Vou verificar', isPrivate: true })).status).toBe(200);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant']);
    expect((await send({ body: 'Olá! Como posso ajudar?' })).status).toBe(200);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant', 'conversation']);

    const reply = await invoke('POST /quick-messages', { token: attendant.token, json: { shortcode: 'oi', message: 'Olá!' } });
    expect(reply.status).toBe(201);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant', 'conversation', 'quickReply']);

    // Queue hours are in force only with scheduleType = queue and a queue that has hours.
    expect(
      (await invoke('PUT /settings/{key}', { token: t.admin.token, params: { key: 'scheduleType' }, json: { value: 'queue' } })).status,
    ).toBe(200);
    expect(await ticked()).not.toContain('businessHours');
    const hours = await invoke('PUT /queue/{id}', {
      token: t.admin.token,
      params: { id: queue.body.id },
      json: { schedules: defaultCompanySchedules },
    });
    expect(hours.status).toBe(200);
    expect(await ticked()).toEqual(['connection', 'queue', 'attendant', 'conversation', 'quickReply', 'businessHours']);
  });

  it("counts the company's own hours once scheduleType is company", async () => {
    const other = await seedTenant(env.stack);
    expect(await ticked(other.admin.token)).toEqual([]);
    await invoke('PUT /settings/{key}', { token: other.admin.token, params: { key: 'scheduleType' }, json: { value: 'company' } });
    expect(await ticked(other.admin.token)).toEqual(['businessHours']);
  });

  it('keeps the dismissal for the company, refuses plain users, strangers and garbage', async () => {
    const owner = await seedTenant(env.stack);
    const neighbour = await seedTenant(env.stack);
    const plain = await owner.addUser('user');

    expect((await read(plain.token)).status).toBe(403);
    expect((await invoke('PUT /onboarding', { token: plain.token, json: { dismissed: true } })).status).toBe(403);
    expect((await read('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.forged')).status).toBe(401);
    expect((await invoke('PUT /onboarding', { json: { dismissed: true } })).status).toBe(401);
    for (const json of [{}, { dismissed: 'yes' }, { dismissed: true, companyId: neighbour.companyId }, [true], 'x']) {
      const res = await invoke('PUT /onboarding', { token: owner.admin.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }

    const dismissed = await invoke('PUT /onboarding', { token: owner.admin.token, json: { dismissed: true } });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.dismissed).toBe(true);
    // Another admin of the company (another device) finds it dismissed; the neighbour's is untouched.
    const colleague = await owner.addUser('admin');
    expect((await read(colleague.token)).body.dismissed).toBe(true);
    expect((await read(neighbour.admin.token)).body).toMatchObject({ dismissed: false });
    // The neighbour's acts never tick the owner's steps.
    await invoke('POST /queue', { token: neighbour.admin.token, json: { name: 'Suporte', color: '#654321' } });
    expect(await ticked(neighbour.admin.token)).toEqual(['queue']);
    expect((await read(owner.admin.token)).body.steps.find((s: { key: string }) => s.key === 'queue').done).toBe(false);
  });
});
