/**
 * The campaign shipping engine over the local stack (issue 10 "Done means"), as the contacts' phones
 * see it (the simulator's chats): each contact of a list gets exactly one message with its
 * placeholders filled; a scheduled campaign sends nothing before its time; cancel stops it and
 * restart ships only who was not reached, once; a session-host killed mid-campaign loses and doubles
 * nothing; with confirmation on, the first reply (not every reply) brings the message; a tag's
 * audience is the contacts whose tickets carry the tag, each reached once; another
 * tenant cannot read, cancel or restart it; the plan gate and garbage ids are 4xx.
 *
 * Bounding the waits: the kill test lowers the session-commands visibility timeout to 8 s for its run
 * (as whatsapp-crash.test.ts does), so commands the dead host had taken come back in seconds.
 */
import { randomInt } from 'node:crypto';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  ok,
  type Simulator,
  simulator,
  sleep,
  stackControl,
  waitLinked,
  waitUntil,
} from './whatsapp-kit.ts';

const CRASH_VISIBILITY_SECONDS = 8;

let call: Call;
let sim: Simulator;
let superToken: string;
let a: Tenant;
let b: Tenant;
let setup: ConnectionSetup;
let setupB: ConnectionSetup;
let sqs: SQSClient;
let commandsVisibility: string | undefined;

const phone = () => `55419${randomInt(10_000_000, 99_999_999)}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  [a, b] = await Promise.all([createTenant(call, superToken, planId, 'ship-a'), createTenant(call, superToken, planId, 'ship-b')]);
  // B ships its own first campaign beside A's (the first test): both send `cmp-1-1-m` and the like.
  [setup, setupB] = await Promise.all([
    connectedConnection(call, sim, { token: a.admin.token, companyId: a.companyId, queues: ['Campanhas'] }),
    connectedConnection(call, sim, { token: b.admin.token, companyId: b.companyId, queues: ['Campanhas B'] }),
  ]);
  sqs = new SQSClient({
    endpoint: inject('env').SQS_ENDPOINT,
    region: inject('env').AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}, 60_000);

afterAll(async () => {
  if (commandsVisibility)
    await sqs.send(
      new SetQueueAttributesCommand({
        QueueUrl: inject('env').QUEUE_URL_SESSION_COMMANDS,
        Attributes: { VisibilityTimeout: commandsVisibility },
      }),
    );
  sqs?.destroy();
});

type Person = { name: string; number: string; email: string };

async function listOf(count: number, label: string, tenant: Tenant = a): Promise<{ listId: number; people: Person[] }> {
  const list = await ok<{ id: number }>(call, 'POST', '/contact-lists', {
    token: tenant.user.token,
    body: { name: `${label} ${randomInt(1e6)}` },
  });
  const people = Array.from({ length: count }, (_, i) => ({
    name: `${label} Pessoa ${i}`,
    number: phone(),
    email: `p${i}@${label.toLowerCase()}.test`,
  }));
  for (const person of people)
    await ok(call, 'POST', '/contact-list-items', { token: tenant.user.token, body: { ...person, contactListId: list.id } });
  return { listId: list.id, people };
}

async function settings(messageInterval: number, longerIntervalAfter = 0, greaterInterval = 0, tenant: Tenant = a) {
  await ok(call, 'POST', '/campaign-settings', {
    token: tenant.admin.token,
    body: { settings: { messageInterval, longerIntervalAfter, greaterInterval, variables: [{ key: 'loja', value: 'Loja Azul' }] } },
  });
}

const ours = async (number: string, from: ConnectionSetup = setup) => (await sim.chat(from.simId, number)).filter((m) => m.from === 'us');
const campaign = (id: number, tenant: Tenant = a) => ok<Campaign>(call, 'GET', `/campaigns/${id}`, { token: tenant.user.token });

async function waitFinished(id: number, timeoutMs = 90_000, tenant: Tenant = a): Promise<Campaign> {
  let last: Campaign | undefined;
  await waitUntil(
    `campaign ${id} of company ${tenant.companyId} FINALIZADA`,
    async () => {
      last = await campaign(id, tenant);
      return last.status === 'FINALIZADA';
    },
    timeoutMs,
  );
  return last as Campaign;
}

describe('campaign shipping over the local stack', () => {
  // Every tenant's first campaign sends `cmp-1-1-m`, `cmp-1-2-m`...: A's and B's run side by side here,
  // and each contact of each gets its message (the command queue once took B's for a repeat of A's).
  it("gives each valid contact of the list exactly one message, placeholders filled, and finishes, beside another tenant's first campaign", async () => {
    await Promise.all([settings(0), settings(0, 0, 0, b)]);
    const [{ listId, people }, other] = await Promise.all([listOf(5, 'Ship'), listOf(3, 'ShipB', b)]);
    const [started, startedB] = await Promise.all([
      ok<Campaign>(call, 'POST', '/campaigns', {
        token: a.user.token,
        body: {
          name: 'Black Friday',
          contactListId: listId,
          whatsappId: setup.connectionId,
          message1: 'Oi {nome}! Seu número {numero}, e-mail {email}: {loja} 😀',
          message2: 'Olá {NOME}, {loja} tem ofertas para {numero} ({email})',
          status: 'EM_ANDAMENTO',
        },
      }),
      ok<Campaign>(call, 'POST', '/campaigns', {
        token: b.user.token,
        body: {
          name: 'Outra loja',
          contactListId: other.listId,
          whatsappId: setupB.connectionId,
          message1: 'B {nome}',
          status: 'EM_ANDAMENTO',
        },
      }),
    ]);
    expect([started.id, startedB.id]).toEqual([1, 1]);
    expect(started.status).toBe('EM_ANDAMENTO');
    const [done, doneB] = await Promise.all([waitFinished(started.id), waitFinished(startedB.id, 90_000, b)]);
    expect(done.completedAt).not.toBeNull();
    expect(done.progress).toMatchObject({ valid: 5, invalid: 0, queued: 5, delivered: 5, failed: 0 });
    expect(doneB.progress).toMatchObject({ valid: 3, queued: 3, delivered: 3, failed: 0 });
    for (const person of people) {
      const got = await ours(person.number);
      expect(got, person.number).toHaveLength(1);
      expect([
        `Oi ${person.name}! Seu número ${person.number}, e-mail ${person.email}: Loja Azul 😀`,
        `Olá ${person.name}, Loja Azul tem ofertas para ${person.number} (${person.email})`,
      ]).toContain(got[0]?.body);
    }
    for (const person of other.people) expect((await ours(person.number, setupB)).map((m) => m.body)).toEqual([`B ${person.name}`]);
  });

  it('sends nothing before scheduledAt, then starts within seconds of it', async () => {
    await settings(0);
    const { listId, people } = await listOf(3, 'Agenda');
    const at = new Date(Date.now() + 7000);
    const made = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: {
        name: 'Agendada',
        contactListId: listId,
        whatsappId: setup.connectionId,
        message1: 'Agendada {nome}',
        scheduledAt: at.toISOString(),
      },
    });
    expect(made.status).toBe('PROGRAMADA');
    await sleep(Math.max(0, at.getTime() - Date.now() - 1500));
    for (const person of people) expect(await ours(person.number)).toHaveLength(0);
    await waitFinished(made.id);
    for (const person of people) {
      const got = await ours(person.number);
      expect(got).toHaveLength(1);
      expect(got[0]?.timestamp).toBeGreaterThanOrEqual(at.getTime());
      expect(got[0]?.timestamp).toBeLessThan(at.getTime() + 5000);
    }
  });

  it('cancel stops the pending sends at once; restart ships only who was not reached, once each', async () => {
    await settings(5);
    const { listId, people } = await listOf(4, 'Cancel');
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: { name: 'Pausada', contactListId: listId, whatsappId: setup.connectionId, message1: 'Pausa {nome}', status: 'EM_ANDAMENTO' },
    });
    await waitUntil('first contact reached', async () => (await ours((people[0] as Person).number)).length === 1);
    const cancelled = await ok<Campaign>(call, 'POST', `/campaigns/${started.id}/cancel`, { token: a.user.token });
    expect(cancelled.status).toBe('CANCELADA');
    const again = await call('POST', `/campaigns/${started.id}/cancel`, { token: a.user.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'ERR_CAMPAIGN_NOT_RUNNING' });
    const reachedAtCancel = (await Promise.all(people.map(async (p) => (await ours(p.number)).length))).reduce((x, y) => x + y, 0);
    // Two intervals later nothing more has gone out.
    await sleep(10_000);
    const reachedLater = (await Promise.all(people.map(async (p) => (await ours(p.number)).length))).reduce((x, y) => x + y, 0);
    expect(reachedLater).toBe(reachedAtCancel);
    expect(reachedLater).toBeLessThan(people.length);

    const restarted = await ok<Campaign>(call, 'POST', `/campaigns/${started.id}/restart`, { token: a.user.token });
    expect(restarted.status).toBe('EM_ANDAMENTO');
    await settings(0);
    const done = await waitFinished(started.id);
    expect(done.progress).toMatchObject({ valid: 4, delivered: 4 });
    for (const person of people) expect(await ours(person.number), person.number).toHaveLength(1);
    const finishedRestart = await call('POST', `/campaigns/${started.id}/restart`, { token: a.user.token });
    expect(finishedRestart.status).toBe(409);
  }, 60_000);

  it('loses and doubles nothing when the session-host is killed mid-campaign', async () => {
    const queueUrl = inject('env').QUEUE_URL_SESSION_COMMANDS;
    const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }));
    commandsVisibility = attributes.Attributes?.VisibilityTimeout;
    await sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: queueUrl, Attributes: { VisibilityTimeout: String(CRASH_VISIBILITY_SECONDS) } }),
    );
    // Batches of 5 with a 5 s pause between them: the kill lands mid-campaign.
    await settings(0, 5, 5);
    const { listId, people } = await listOf(15, 'Crash');
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: { name: 'Queda', contactListId: listId, whatsappId: setup.connectionId, message1: 'Queda {nome}', status: 'EM_ANDAMENTO' },
    });
    await waitUntil('a first batch reached', async () => (await ours((people[0] as Person).number)).length === 1);
    const control = stackControl(inject('controlUrl'));
    await control.killSessionHost('SIGKILL');
    await sleep(1000);
    await control.startSessionHost();
    await waitLinked(sim, setup.simId, 30_000);
    const done = await waitFinished(started.id, 90_000);
    expect(done.progress).toMatchObject({ valid: 15, queued: 15, delivered: 15 });
    for (const person of people) expect(await ours(person.number), person.number).toHaveLength(1);
  }, 150_000);

  it("sends the campaign's attachment after the message; the attachment is kept only while it may be edited", async () => {
    await settings(0);
    const { listId, people } = await listOf(2, 'Anexo');
    const made = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: { name: 'Com anexo', contactListId: listId, whatsappId: setup.connectionId, message1: 'Veja o folheto, {nome}' },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4 folheto')], { type: 'application/pdf' }), 'folheto.pdf');
    const res = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/campaigns/${made.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.user.token}` },
      body: form,
    });
    const withMedia = (await res.json()) as Campaign;
    expect(res.status).toBe(200);
    expect(withMedia).toMatchObject({ mediaName: 'folheto.pdf', mediaPath: expect.stringMatching(/^\/public\/\d+\/campaigns\//) });
    const theirs = await call('DELETE', `/campaigns/${made.id}/media-upload`, { token: b.admin.token });
    expect(theirs.status).toBe(404);
    await ok(call, 'PUT', `/campaigns/${made.id}`, { token: a.user.token, body: { status: 'EM_ANDAMENTO' } });
    await waitFinished(made.id);
    // The attachment follows the message (the campaign finishes on the messages' results).
    for (const person of people) {
      await waitUntil(`attachment reaches ${person.number}`, async () => (await ours(person.number)).length >= 2, 20_000);
      const got = await ours(person.number);
      expect(got.map((m) => m.body)[0]).toBe(`Veja o folheto, ${person.name}`);
      expect(got).toHaveLength(2);
    }
    // Shipped: no longer editable, so the attachment stays.
    expect((await call('DELETE', `/campaigns/${made.id}/media-upload`, { token: a.user.token })).status).toBe(409);
  });

  it('with confirmation: asks first, and only the first reply brings the message', async () => {
    await settings(0);
    const { listId, people } = await listOf(2, 'Confirma');
    const [yes, silent] = people as [Person, Person];
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: {
        name: 'Confirmação',
        confirmation: true,
        contactListId: listId,
        whatsappId: setup.connectionId,
        message1: 'Obrigado {nome}',
        confirmationMessage1: 'Podemos enviar a oferta, {nome}?',
        status: 'EM_ANDAMENTO',
      },
    });
    await waitUntil('both asked', async () => (await campaign(started.id)).progress.confirmationRequested === 2);
    expect((await ours(yes.number)).map((m) => m.body)).toEqual([`Podemos enviar a oferta, ${yes.name}?`]);
    await sim.send(setup.simId, yes.number, 'sim', yes.name);
    await waitUntil('the offer arrives', async () => (await ours(yes.number)).some((m) => m.body === `Obrigado ${yes.name}`));
    await sim.send(setup.simId, yes.number, 'sim, de novo', yes.name);
    // The second reply is a ticket message like any other: it brings no second offer.
    await sleep(3000);
    expect((await ours(yes.number)).filter((m) => m.body.startsWith('Obrigado'))).toHaveLength(1);
    expect((await ours(silent.number)).map((m) => m.body)).toEqual([`Podemos enviar a oferta, ${silent.name}?`]);
    const now = await campaign(started.id);
    expect(now.status).toBe('EM_ANDAMENTO');
    expect(now.progress).toMatchObject({ confirmationRequested: 2, confirmed: 1, delivered: 1 });
    // The replies opened a ticket as inbound messages do.
    const tickets = await ok<{ tickets: { contact: { number: string } }[] }>(call, 'GET', '/tickets', {
      token: a.admin.token,
      query: { showAll: 'true', status: 'pending' },
    });
    expect(tickets.tickets.some((t) => t.contact.number === yes.number)).toBe(true);
    await ok(call, 'POST', `/campaigns/${started.id}/cancel`, { token: a.user.token });
  }, 60_000);

  it("ships a tag's audience: each contact whose ticket carries the tag gets one message, the others none", async () => {
    await settings(0);
    const tag = await ok<{ id: number }>(call, 'POST', '/tags', { token: a.admin.token, body: { name: `Tag ${randomInt(1e6)}` } });
    const [tagged1, tagged2, untagged] = ['Tina', 'Téo', 'Ugo'].map((name) => ({ name, number: phone() }));
    const people = [tagged1, tagged2, untagged] as { name: string; number: string }[];
    for (const person of people) await sim.send(setup.simId, person.number, 'oi', person.name);
    const ticketIds = new Map<string, number>();
    await waitUntil('the three tickets', async () => {
      const { tickets } = await ok<{ tickets: { id: number; contact: { number: string } }[] }>(call, 'GET', '/tickets', {
        token: a.admin.token,
        query: { showAll: 'true', status: 'pending' },
      });
      for (const ticket of tickets) ticketIds.set(ticket.contact.number, ticket.id);
      return people.every((person) => ticketIds.has(person.number));
    });
    for (const person of [tagged1, tagged2])
      await ok(call, 'PUT', `/ticket-tags/${ticketIds.get(person?.number ?? '')}/${tag.id}`, { token: a.admin.token });
    const started = await ok<Campaign>(call, 'POST', '/campaigns', {
      token: a.user.token,
      body: { name: 'Por tag', tagListId: tag.id, whatsappId: setup.connectionId, message1: 'Tag {nome} {numero}', status: 'EM_ANDAMENTO' },
    });
    const done = await waitFinished(started.id);
    expect(done.progress).toMatchObject({ valid: 2, invalid: 0, queued: 2, delivered: 2, failed: 0 });
    for (const person of [tagged1, tagged2] as { name: string; number: string }[])
      expect((await ours(person.number)).filter((m) => m.body.startsWith('Tag '))).toEqual([
        expect.objectContaining({ body: `Tag ${person.name} ${person.number}` }),
      ]);
    expect((await ours(untagged?.number ?? '')).filter((m) => m.body.startsWith('Tag '))).toEqual([]);
  }, 90_000);

  it("refuses another tenant, forged tokens, garbage ids and a plan without campaigns; B's campaign stays as it was", async () => {
    // Ids are per tenant: B's campaign gets an id that A has no campaign of, so a 404 means "not yours".
    const ownIds = (await ok<{ records: Campaign[] }>(call, 'GET', '/campaigns', { token: a.user.token })).records.map((c) => c.id);
    let theirs = await ok<Campaign>(call, 'POST', '/campaigns', { token: b.user.token, body: { name: 'De B' } });
    while (theirs.id <= Math.max(...ownIds)) {
      await ok(call, 'DELETE', `/campaigns/${theirs.id}`, { token: b.user.token });
      theirs = await ok<Campaign>(call, 'POST', '/campaigns', { token: b.user.token, body: { name: 'De B' } });
    }
    for (const path of [`/campaigns/${theirs.id}/cancel`, `/campaigns/${theirs.id}/restart`]) {
      const res = await call('POST', path, { token: a.admin.token });
      expect(res.status, path).toBe(404);
      expect((await call('POST', path, { token: `${a.user.token.slice(0, -4)}AAAA` })).status).toBe(401);
    }
    expect((await call('GET', `/campaigns/${theirs.id}`, { token: a.admin.token })).status).toBe(404);
    expect((await ok<Campaign>(call, 'GET', `/campaigns/${theirs.id}`, { token: b.user.token })).status).toBe('INATIVA');
    const inactive = await call('POST', `/campaigns/${theirs.id}/cancel`, { token: b.user.token });
    expect(inactive.body).toMatchObject({ error: 'ERR_CAMPAIGN_NOT_RUNNING' });
    for (const id of ['abc', '0', '-1', '1e3', '99999999999999999999', '%00']) {
      const res = await call('POST', `/campaigns/${id}/restart`, { token: a.user.token });
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
      expect((res.body as { error?: string }).error).toMatch(/^ERR_/);
    }
    const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
      token: superToken,
      body: { name: `Sem campanhas ${randomInt(1e9)}`, useCampaigns: false },
    });
    const without = await createTenant(call, superToken, plan.id, 'ship-off');
    const gated = await call('POST', '/campaigns/1/cancel', { token: without.admin.token });
    expect(gated.status).toBe(403);
    expect(gated.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useCampaigns' });
  });
});
