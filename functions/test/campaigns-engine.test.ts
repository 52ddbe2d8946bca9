/**
 * The campaign shipping engine over DynamoDB Local (domain/campaigns/engine.ts, results.ts), its
 * clock and its session commands recorded: every tick delivered twice and one dying right after its
 * commit still ship each contact under one message id; a cancel between two ticks stops the next
 * one whole; results delivered twice count once and FINALIZADA comes with the last; invalid numbers
 * are counted apart and never sent; the pace's delays are the configured seconds; a confirmation is
 * answered once however often the contact replies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionCommand } from '#contracts/session-events';
import type { CampaignClockMessage } from '#domain/campaigns/clock';
import { cancelCampaign, type EngineDeps, runTick, startCampaign } from '#domain/campaigns/engine';
import { confirmReply, settleCampaignSend } from '#domain/campaigns/results';
import type { Effects } from '#domain/messages/effects';
import { getRun } from '#storage/campaign-runs';
import { getCampaign } from '#storage/campaigns';
import { setWhatsappValid } from '#storage/contact-list-items';
import { invoke, newCampaign, newItem, newList } from './campaigns-harness.ts';
import { createConnection, type Env, startEnv } from './messages-harness.ts';
import { seedTenant, type Tenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

type Send = Extract<SessionCommand, { kind: 'send' }>;

function harness() {
  const clock: { message: CampaignClockMessage; delay: number }[] = [];
  const sends: Send[] = [];
  const events: unknown[] = [];
  let failNextSend = false;
  let nowMs = Date.now();
  const effects: Effects = {
    async sendCommand(command) {
      if (failNextSend) {
        failNextSend = false;
        throw new Error('killed after the commit');
      }
      if (command.kind === 'send') sends.push(command);
    },
    async publish(_companyId, _event, data) {
      events.push(data);
    },
    now: () => new Date(nowMs),
  };
  const deps: EngineDeps = { effects, clock: async (message, delay) => void clock.push({ message, delay }), random: () => 0 };
  /**
   * Runs the queued ticks in order, the clock moved to each one's time, until the chain sleeps. With
   * `times` 2 each is delivered twice (SQS's at-least-once: a second copy, not a redelivery).
   */
  async function drain(times = 1, limit = 200): Promise<void> {
    for (let n = 0; clock.length && n < limit; n++) {
      const { message, delay } = clock.shift() as { message: CampaignClockMessage; delay: number };
      nowMs += delay * 1000;
      if (message.kind !== 'tick') continue;
      const first = await runTick(message, false, deps);
      // A copy finds its seq gone; the sleeping chain's last tick only says so again.
      for (let i = 1; i < times; i++) expect(await runTick(message, false, deps)).toBe(first === 'idle' ? 'idle' : 'stale');
    }
  }
  /** The next tick, the clock moved to its time. */
  function nextTick(): Extract<CampaignClockMessage, { kind: 'tick' }> {
    const { message, delay } = clock.shift() as { message: CampaignClockMessage; delay: number };
    nowMs += delay * 1000;
    if (message.kind !== 'tick') throw new Error('expected a tick');
    return message;
  }
  return { clock, sends, events, effects, deps, drain, nextTick, failNext: () => (failNextSend = true) };
}

async function setup(t: Tenant, count: number, fields: Record<string, unknown> = {}, interval = 0) {
  const connection = await createConnection(t);
  await invoke('POST /campaign-settings', {
    token: t.admin.token,
    json: { settings: { messageInterval: interval, longerIntervalAfter: 0, greaterInterval: 0, variables: [] } },
  });
  const list = await newList(t);
  const items: { id: number; number: string; name: string }[] = [];
  for (let i = 0; i < count; i++) items.push(await newItem(t, list.id, { name: `Pessoa ${i}` }));
  const campaign = await newCampaign(t, { contactListId: list.id, whatsappId: connection.id, message1: 'Oi {nome}', ...fields });
  return { connectionId: connection.id, listId: list.id, items, campaignId: campaign.id as number };
}

const result = (companyId: number, connectionId: number, send: Send, error?: string) => ({
  kind: 'campaignResult' as const,
  companyId,
  connectionId,
  campaignId: send.campaignId as number,
  messageId: send.messageId,
  number: send.number,
  ...(error ? { error } : { waMessageId: `WA-${send.messageId}`, timestamp: Date.now() }),
});

describe('the campaign engine', () => {
  it('ships each valid contact once under one message id despite duplicate ticks and a tick dying after its commit', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 45);
    await setWhatsappValid(t.companyId, (items[3] as { id: number }).id, false);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    // The first tick commits its batch of 20, then dies on its first send; SQS gives it again.
    const first = h.nextTick();
    h.failNext();
    await expect(runTick(first, false, h.deps)).rejects.toThrow('killed after the commit');
    expect(await runTick(first, true, h.deps)).toBe('finished');
    // Every later tick is delivered twice: the second copy finds its seq gone and does nothing.
    await h.drain(2);

    const messageIds = h.sends.map((s) => s.messageId);
    expect(new Set(messageIds).size).toBe(44);
    // Only the dead tick's batch went twice, under the same ids and the same texts: the host sends each id once.
    const byId = new Map<string, Send>();
    for (const send of h.sends) {
      if (byId.has(send.messageId)) expect(send).toEqual(byId.get(send.messageId));
      byId.set(send.messageId, send);
    }
    expect(messageIds.length - 44).toBeLessThanOrEqual(19);
    expect(h.sends.find((s) => s.number === (items[3] as { number: string }).number)).toBeUndefined();
    expect(h.sends.find((s) => s.number === (items[0] as { number: string }).number)).toMatchObject({
      body: 'Oi Pessoa 0',
      campaignId,
      connectionId,
      isGroup: false,
      kind: 'send',
    });
    expect(await getRun(t.companyId, campaignId)).toMatchObject({ valid: 44, invalid: 1, queued: 44, done: true });

    // Results, each delivered twice: counted once; the last one finishes the campaign.
    for (const send of h.sends) {
      await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
      await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
    }
    expect(await getRun(t.companyId, campaignId)).toMatchObject({ delivered: 44, failed: 0 });
    const finished = await getCampaign(t.companyId, campaignId);
    expect(finished?.status).toBe('FINALIZADA');
    expect(finished?.completedAt).toEqual(expect.any(String));
    expect(h.events).toContainEqual(expect.objectContaining({ action: 'progress', id: campaignId, status: 'FINALIZADA' }));
  }, 90_000);

  it('a cancel between two ticks stops the next one whole; restart ships only the undelivered, under the same ids', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, campaignId } = await setup(t, 3, {}, 5);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    expect(await runTick(h.nextTick(), false, h.deps)).toBe('shipped');
    expect(h.sends).toHaveLength(1);
    // The pace: the next tick waits messageInterval (5 s).
    expect(h.clock.at(-1)?.delay).toBe(5);
    await cancelCampaign(t.companyId, campaignId, h.deps);
    await h.drain();
    expect(h.sends).toHaveLength(1);
    await settleCampaignSend(result(t.companyId, connectionId, h.sends[0] as Send), h.effects);

    await startCampaign(t.companyId, campaignId, ['CANCELADA'], h.deps);
    await h.drain();
    expect(h.sends).toHaveLength(3);
    expect(new Set(h.sends.map((s) => s.messageId)).size).toBe(3);
  });

  it('paces with greaterInterval after every longerIntervalAfter sends (seconds)', async () => {
    const t = await seedTenant(env.stack);
    const { campaignId } = await setup(t, 5, {}, 5);
    await invoke('POST /campaign-settings', {
      token: t.admin.token,
      json: { settings: { messageInterval: 5, longerIntervalAfter: 1, greaterInterval: 10 } },
    });
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    const delays: number[] = [];
    for (let n = 0; n < 5; n++) {
      await runTick(h.nextTick(), false, h.deps);
      delays.push(h.clock.at(-1)?.delay as number);
    }
    // One send then a 10 s pause, every time (the pause replaces the interval).
    expect(delays).toEqual([10, 10, 10, 10, 10]);
  });

  it('with confirmation: asks first; the first reply sends the message once, later replies nothing', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 2, { confirmation: true, confirmationMessage1: 'Posso enviar, {nome}?' });
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    await h.drain();
    expect(h.sends.map((s) => s.body)).toEqual(['Posso enviar, Pessoa 0?', 'Posso enviar, Pessoa 1?']);
    for (const send of [...h.sends]) await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
    const number = (items[0] as { number: string }).number;
    expect(await confirmReply(t.companyId, connectionId, number, h.deps)).toBe('confirmed');
    expect(await confirmReply(t.companyId, connectionId, number, h.deps)).toBe('none');
    expect(h.sends.filter((s) => s.body === 'Oi Pessoa 0')).toHaveLength(1);
    expect(h.sends.filter((s) => s.body === 'Oi Pessoa 1')).toHaveLength(0);
    expect(await getRun(t.companyId, campaignId)).toMatchObject({ confirmationRequested: 2, confirmed: 1 });
    // Another tenant's contact with the same number on a connection of the same id confirms nothing here.
    const other = await seedTenant(env.stack);
    expect(await confirmReply(other.companyId, connectionId, number, h.deps)).toBe('none');
  });
});
