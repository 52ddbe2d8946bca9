/**
 * Scheduled messages over the local stack (BEHAVIOUR "Scheduled messages"): a schedule for a contact
 * whose conversation is on a connected simulated phone reaches that phone exactly once, however many
 * runs of the job overlap (the stack's own minute timer among them); it becomes ENVIADA with sentAt,
 * and the message is in the ticket and arrives over the socket. A send time long past is still sent
 * when the job runs again; with no connection the schedule is ERRO with the reason; a plan without
 * useSchedules is refused. The job handler is invoked here directly, as EventBridge would.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { AppMessageEvent } from '@conversa/functions/contracts/messages';
import type { Schedule } from '@conversa/functions/contracts/schedule-requests';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  connectSocket,
  ok,
  type Simulator,
  type Socket,
  simulator,
  sleep,
  waitUntil,
} from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let superToken: string;
let tenant: Tenant;
let setup: ConnectionSetup;
let socket: Socket | undefined;
let runJob: () => Promise<void>;

const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;

const getSchedule = (t: Tenant, id: number) => ok<Schedule>(call, 'GET', `/schedules/${id}`, { token: t.admin.token });

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'schedules');
  setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Agenda'] });
  socket = await connectSocket(inject('wsUrl'), tenant.admin.token);
  // The job's handler runs in this process against the stack's table, queues and sockets.
  Object.assign(process.env, inject('env'));
  const job = await import('@conversa/functions/handlers/jobs/schedule-sends');
  runJob = () => job.handler();
});

afterAll(() => socket?.close());

/** A contact writes to the phone: the contact and its ticket exist, as for any conversation. */
async function conversation(number: string): Promise<{ ticketId: number; contactId: number }> {
  await sim.send(setup.simId, number, 'Olá, quero um lembrete', 'Rita');
  const frame = await socket!.waitFor(
    'the contact message',
    (f) => f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).contact?.number === number,
  );
  const { ticket, contact } = frame.data as AppMessageEvent;
  return { ticketId: ticket.id, contactId: contact.id };
}

const ours = async (number: string, body: string) =>
  (await sim.chat(setup.simId, number)).filter((m) => m.from === 'us' && m.body === body);

describe('scheduled messages over the local stack', () => {
  it('reaches the phone exactly once when runs overlap; ENVIADA with sentAt; the message is in the ticket and on the socket', async () => {
    const number = phone();
    const { ticketId, contactId } = await conversation(number);
    const body = `Lembrete ${randomInt(1000, 9999)}: sua consulta é amanhã`;
    const made = await ok<Schedule>(call, 'POST', '/schedules', {
      token: tenant.admin.token,
      body: { body, contactId, ticketId, sendAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(made.status).toBe('PENDENTE');

    // Three runs at once (and the stack's own timer may run one too).
    await Promise.all([runJob(), runJob(), runJob()]);
    await waitUntil('the phone shows the scheduled message', async () => (await ours(number, body)).length > 0);
    await runJob();
    await sleep(2000);
    expect(await ours(number, body)).toHaveLength(1);

    const sent = await getSchedule(tenant, made.id);
    expect(sent).toMatchObject({ status: 'ENVIADA', ticketId, whatsappId: setup.connectionId, error: null });
    expect(Date.parse(sent.sentAt ?? '')).toBeGreaterThanOrEqual(Date.parse(made.sendAt));
    const messages = await ok<{ messages: { body: string; fromMe: boolean }[] }>(call, 'GET', `/messages/${ticketId}`, {
      token: tenant.admin.token,
    });
    expect(messages.messages.filter((m) => m.body === body && m.fromMe)).toHaveLength(1);
    await socket!.waitFor(
      'the message event of the scheduled send',
      (f) => f.event === channels.appMessage(tenant.companyId) && (f.data as AppMessageEvent).message?.body === body,
    );
    await socket!.waitFor(
      'the schedule update event',
      (f) =>
        f.event === channels.schedule(tenant.companyId) && JSON.stringify(f.data) === JSON.stringify({ action: 'update', id: made.id }),
    );
  });

  it('sends a schedule whose time passed while nothing ran, through the default connection, opening the ticket', async () => {
    const number = phone();
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
      token: tenant.admin.token,
      body: { name: 'Sérgio Atrasado', number },
    });
    const body = `Mensagem atrasada ${randomInt(1000, 9999)}`;
    const made = await ok<Schedule>(call, 'POST', '/schedules', {
      token: tenant.admin.token,
      body: { body, contactId: contact.id, sendAt: '2021-03-01T12:00:00.000Z' },
    });
    await runJob();
    await waitUntil('the late message on the phone', async () => (await ours(number, body)).length > 0);
    const sent = await getSchedule(tenant, made.id);
    expect(sent).toMatchObject({ status: 'ENVIADA', whatsappId: setup.connectionId });
    const ticket = await ok<{ contactId: number; whatsappId: number }>(call, 'GET', `/tickets/${sent.ticketId}`, {
      token: tenant.admin.token,
    });
    expect(ticket).toMatchObject({ contactId: contact.id, whatsappId: setup.connectionId });
    expect(await ours(number, body)).toHaveLength(1);
  });

  it('without any connection the schedule is ERRO with the reason, and nothing is sent', async () => {
    const bare = await createTenant(call, superToken, await firstPlanId(call), 'schedules-bare');
    const contact = await ok<{ id: number }>(call, 'POST', '/contacts', {
      token: bare.admin.token,
      body: { name: 'Sem conexão', number: phone() },
    });
    const made = await ok<Schedule>(call, 'POST', '/schedules', {
      token: bare.admin.token,
      body: { body: 'Ninguém envia isto', contactId: contact.id, sendAt: new Date(Date.now() - 1000).toISOString() },
    });
    await runJob();
    expect(await getSchedule(bare, made.id)).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', sentAt: null });
  });

  it('refuses every schedule route when the plan lacks useSchedules (403, the flag named)', async () => {
    const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
      token: superToken,
      body: { name: `No schedules ${randomInt(1e6)}`, useSchedules: false },
    });
    const gated = await createTenant(call, superToken, plan.id, 'schedules-gated');
    for (const [method, path] of [
      ['GET', '/schedules'],
      ['POST', '/schedules'],
      ['GET', '/schedules/1'],
      ['DELETE', '/schedules/1'],
    ] as const) {
      const res = await call(method, path, {
        token: gated.user.token,
        body: method === 'POST' ? { body: 'Hello there', contactId: 1, sendAt: new Date().toISOString() } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED', flag: 'useSchedules' });
    }
  });
});
