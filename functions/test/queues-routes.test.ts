/**
 * Queues and the chatbot option tree over DynamoDB Local + cognito-local: SPEC 5 "Queue" rules,
 * colour uniqueness, menu order, plan limit, cascade on delete, and tenant isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCompanySchedules } from '#contracts/schedules';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import { getCompany } from '#storage/companies/companies';
import { getConnection } from '#storage/connections';
import { listOptions } from '#storage/queues/options';
import { getUser, updateUser } from '#storage/users/users';
import { call, type Stack, seedTenant, startStack, type Tenant, uniq } from './users-harness.ts';

let stack: Stack;
let a: Tenant;

beforeAll(async () => {
  stack = await startStack();
  a = await seedTenant(stack);
  // Connections made here only need their start command accepted.
  setSessionCommandSender(async () => {});
}, 90_000);
afterAll(async () => {
  setSessionCommandSender(undefined);
  await stack?.stop();
});

type Body = Record<string, unknown>;
let colour = 0;
const nextColour = () => `#c${(colour++).toString(16).padStart(5, '0')}`;
const createQueue = (t: Tenant, body: Body = {}) =>
  call('POST /queue', { token: t.admin.token, body: { name: uniq('Queue '), color: nextColour(), ...body } });
const createOption = (t: Tenant, body: Body) => call('POST /queue-options', { token: t.admin.token, body });

describe('queues', () => {
  it('creates with defaults and lists by order, then name', async () => {
    const tenant = await seedTenant(stack);
    const late = await createQueue(tenant, { name: 'Zeta', orderQueue: 2 });
    const unordered = await createQueue(tenant, { name: 'Alpha' });
    const early = await createQueue(tenant, { name: 'Beta', orderQueue: 1, greetingMessage: 'Welcome' });
    expect(early.status).toBe(201);
    expect(early.body).toMatchObject({ companyId: tenant.companyId, greetingMessage: 'Welcome', complationMessage: '', schedules: [] });
    const list = await call('GET /queue', { token: (await tenant.addUser()).token });
    expect(list.body.map((q: Body) => q.id)).toEqual([early.body.id, late.body.id, unordered.body.id]);
  });

  it('refuses a colour already used by another queue of the company, whatever its case', async () => {
    const first = await createQueue(a, { color: '#ABCDEF' });
    const clash = await createQueue(a, { color: '#abcdef' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    // Another company may use it.
    expect((await createQueue(await seedTenant(stack), { color: '#abcdef' })).status).toBe(201);

    const other = await createQueue(a);
    const steal = await call('PUT /queue/{id}', { token: a.admin.token, params: { id: other.body.id }, body: { color: '#abcdef' } });
    expect(steal.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    // Moving a colour frees the old one.
    await call('PUT /queue/{id}', { token: a.admin.token, params: { id: first.body.id }, body: { color: '#fedcba' } });
    expect(
      (await call('PUT /queue/{id}', { token: a.admin.token, params: { id: other.body.id }, body: { color: '#ABCDEF' } })).status,
    ).toBe(200);
  });

  it('a refused create takes no id: the next queue gets the next number, with no gap (issue 25)', async () => {
    // Prepare
    const tenant = await seedTenant(stack);
    const first = await createQueue(tenant, { color: '#0a0b0c' });
    expect(first.status).toBe(201);
    // Act: a taken colour, then a valid queue, then three at once
    const clash = await createQueue(tenant, { color: '#0A0B0C' });
    const next = await createQueue(tenant);
    const together = await Promise.all([createQueue(tenant), createQueue(tenant), createQueue(tenant)]);
    // Assess
    expect(clash.status).toBe(409);
    expect(next.status).toBe(201);
    expect(next.body.id).toBe(first.body.id + 1);
    expect(together.map((res) => res.status)).toEqual([201, 201, 201]);
    expect(together.map((res) => res.body.id as number).sort((x, y) => x - y)).toEqual([2, 3, 4].map((n) => first.body.id + n));
  });

  it('validates name, colour and schedules with the field named', async () => {
    expect((await createQueue(a, { name: 'x' })).body).toMatchObject({ error: 'ERR_VALIDATION', field: 'name', message: 'Too Short!' });
    expect((await createQueue(a, { name: 'x'.repeat(51) })).body.message).toBe('Too Long!');
    expect((await createQueue(a, { color: '#1' })).body.field).toBe('color');
    expect((await createQueue(a, { color: '#1234567890' })).body.field).toBe('color');
    expect((await call('POST /queue', { token: a.admin.token, body: { color: nextColour() } })).body.message).toBe('Required');
    const made = await createQueue(a);
    const bad = await call('PUT /queue/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { schedules: defaultCompanySchedules.slice(1) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toMatch(/^schedules/);
    const good = await call('PUT /queue/{id}', {
      token: a.admin.token,
      params: { id: made.body.id },
      body: { schedules: defaultCompanySchedules },
    });
    expect(good.body.schedules).toEqual(defaultCompanySchedules);
    expect(good.body.name).toBe(made.body.name);
  });

  it('enforces the plan queue limit and admin-only writes', async () => {
    const tenant = await seedTenant(stack, { plan: { queues: 1 } });
    expect((await createQueue(tenant)).status).toBe(201);
    const over = await createQueue(tenant);
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_QUEUES');
    const plain = await a.addUser();
    expect((await call('POST /queue', { token: plain.token, body: { name: 'Mine', color: nextColour() } })).status).toBe(403);
  });

  it('holds the plan queue limit when creates race', async () => {
    const tenant = await seedTenant(stack, { plan: { queues: 3 } });
    const results = await Promise.all(Array.from({ length: 8 }, () => createQueue(tenant)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status !== 201).map((r) => [r.status, r.body.error])).toEqual(
      Array.from({ length: 5 }, () => [403, 'ERR_PLAN_LIMIT_QUEUES']),
    );
    expect((await call('GET /queue', { token: tenant.admin.token })).body).toHaveLength(3);
  });

  it('deletes a queue from connections, users and its option tree', async () => {
    const tenant = await seedTenant(stack);
    const kept = await createQueue(tenant);
    const gone = await createQueue(tenant);
    const connection = await call('POST /whatsapp', {
      token: tenant.admin.token,
      body: { name: 'Main', queueIds: [kept.body.id, gone.body.id], greetingMessage: 'Hi', transferQueueId: gone.body.id },
    });
    await updateUser(tenant.companyId, tenant.admin.id, { queueIds: [gone.body.id, kept.body.id] });
    await createOption(tenant, { queueId: gone.body.id, title: 'Sales' });

    expect((await call('DELETE /queue/{id}', { token: tenant.admin.token, params: { id: gone.body.id } })).status).toBe(204);

    expect(await getConnection(tenant.companyId, connection.body.id)).toMatchObject({ queueIds: [kept.body.id], transferQueueId: null });
    expect((await getUser(tenant.companyId, tenant.admin.id))?.queueIds).toEqual([kept.body.id]);
    expect(await listOptions(tenant.companyId, gone.body.id, null)).toEqual([]);
    expect((await call('GET /queue/{id}', { token: tenant.admin.token, params: { id: gone.body.id } })).status).toBe(404);
    // Its colour is free again.
    expect((await createQueue(tenant, { color: gone.body.color })).status).toBe(201);
  });

  it("answers 404 for another company's queue and leaves it untouched", async () => {
    const owner = await seedTenant(stack);
    const theirs = await createQueue(owner);
    const intruder = await seedTenant(stack);
    const params = { id: theirs.body.id };
    expect((await call('GET /queue/{id}', { token: intruder.admin.token, params })).status).toBe(404);
    expect((await call('PUT /queue/{id}', { token: intruder.admin.token, params, body: { name: 'Hijacked' } })).status).toBe(404);
    expect((await call('DELETE /queue/{id}', { token: intruder.admin.token, params })).status).toBe(404);
    expect((await call('GET /queue/{id}', { token: owner.admin.token, params })).body.name).toBe(theirs.body.name);
  });

  it('switching automatic assignment on notes the time on the company for the sweeps, never shown by the API', async () => {
    const tenant = await seedTenant(stack);
    const queue = await createQueue(tenant, { autoAssign: 'off' });
    const params = { id: queue.body.id };
    const before = Date.now();
    const renamed = await call('PUT /queue/{id}', { token: tenant.admin.token, params, body: { name: uniq('Renamed ') } });
    expect(renamed.status).toBe(200);
    expect((await getCompany(tenant.companyId))?.routingSwitchedOnAt).toBeUndefined();

    const switched = await call('PUT /queue/{id}', { token: tenant.admin.token, params, body: { autoAssign: 'leastBusy' } });
    expect(switched.status).toBe(200);
    const stamped = (await getCompany(tenant.companyId))?.routingSwitchedOnAt;
    expect(Date.parse(stamped as string)).toBeGreaterThanOrEqual(before);
    // A change of mode is no switch from off: the stamp stays
    await call('PUT /queue/{id}', { token: tenant.admin.token, params, body: { autoAssign: 'roundRobin' } });
    expect((await getCompany(tenant.companyId))?.routingSwitchedOnAt).toBe(stamped);
    const company = await call('GET /companies/{id}', { token: tenant.admin.token, params: { id: tenant.companyId } });
    expect(company.status).toBe(200);
    expect(company.body).not.toHaveProperty('routingSwitchedOnAt');
  });
});

describe('queue options (chatbot tree)', () => {
  it('lists roots with -1 and children by parent, numbering options without an ordinal', async () => {
    const queue = await createQueue(a);
    const sales = await createOption(a, { queueId: queue.body.id, title: 'Sales', message: 'Sales menu' });
    const support = await createOption(a, { queueId: queue.body.id, title: 'Support', option: '2' });
    const child = await createOption(a, { queueId: queue.body.id, parentId: sales.body.id, title: 'New order' });
    expect(sales.body).toMatchObject({ option: '1', parentId: null });
    expect(child.body).toMatchObject({ option: '1', parentId: sales.body.id });

    const roots = await call('GET /queue-options', { token: a.admin.token, query: { queueId: String(queue.body.id), parentId: '-1' } });
    const children = await call('GET /queue-options', {
      token: a.admin.token,
      query: { queueId: String(queue.body.id), parentId: String(sales.body.id) },
    });
    expect(roots.body.map((o: Body) => o.id)).toEqual([sales.body.id, support.body.id]);
    expect(children.body.map((o: Body) => o.id)).toEqual([child.body.id]);

    const edited = await call('PUT /queue-options/{id}', {
      token: a.admin.token,
      params: { id: child.body.id },
      body: { message: 'Tell us' },
    });
    expect(edited.body).toMatchObject({ title: 'New order', message: 'Tell us', parentId: sales.body.id });
  });

  it('deletes a node with its whole subtree', async () => {
    const queue = await createQueue(a);
    const root = await createOption(a, { queueId: queue.body.id, title: 'Root' });
    const sibling = await createOption(a, { queueId: queue.body.id, title: 'Sibling' });
    const mid = await createOption(a, { queueId: queue.body.id, parentId: root.body.id, title: 'Mid' });
    const leaf = await createOption(a, { queueId: queue.body.id, parentId: mid.body.id, title: 'Leaf' });

    expect((await call('DELETE /queue-options/{id}', { token: a.admin.token, params: { id: root.body.id } })).status).toBe(204);

    expect((await listOptions(a.companyId, queue.body.id, null)).map((o) => o.id)).toEqual([sibling.body.id]);
    for (const id of [mid.body.id, leaf.body.id]) {
      expect((await call('PUT /queue-options/{id}', { token: a.admin.token, params: { id }, body: { title: 'x' } })).status).toBe(404);
    }
  });

  it('refuses a parent from another queue and queues or options of another company', async () => {
    const q1 = await createQueue(a);
    const q2 = await createQueue(a);
    const inQ1 = await createOption(a, { queueId: q1.body.id, title: 'One' });
    const crossed = await createOption(a, { queueId: q2.body.id, parentId: inQ1.body.id, title: 'Crossed' });
    expect(crossed.status).toBe(400);
    expect(crossed.body.field).toBe('parentId');

    const intruder = await seedTenant(stack);
    expect((await createOption(intruder, { queueId: q1.body.id, title: 'x' })).status).toBe(404);
    expect((await call('GET /queue-options', { token: intruder.admin.token, query: { queueId: String(q1.body.id) } })).status).toBe(404);
    expect((await call('DELETE /queue-options/{id}', { token: intruder.admin.token, params: { id: inQ1.body.id } })).status).toBe(404);
    expect((await call('GET /queue-options', { token: a.admin.token, query: {} })).body.field).toBe('queueId');
    expect((await listOptions(a.companyId, q1.body.id, null)).map((o) => o.id)).toEqual([inQ1.body.id]);
  });
});
