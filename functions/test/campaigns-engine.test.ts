/**
 * The campaign shipping engine over DynamoDB Local (domain/campaigns/engine.ts, results.ts), its
 * clock and its session commands recorded: every tick delivered twice and one dying right after its
 * commit still ship each contact under one message id; a cancel between two ticks stops the next
 * one whole; results delivered twice count once and FINALIZADA comes with the last; invalid numbers
 * are counted apart and never sent; the pace's delays are the configured seconds; a confirmation is
 * answered once however often the contact replies; a chain whose tick was lost is revived by the
 * campaign-starts job and finishes, nobody getting two messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelCampaign, runTick, startCampaign } from '#domain/campaigns/engine';
import { queueDueStarts, STALE_CHAIN_MS } from '#domain/campaigns/lifecycle';
import { confirmReply, settleCampaignSend } from '#domain/campaigns/results';
import { getCampaign } from '#storage/campaigns/campaigns';
import { getRun } from '#storage/campaigns/runs';
import { setWhatsappValid } from '#storage/contact-lists/items';
import { harness, result, type Send, setup } from './campaigns-engine-harness.ts';
import { invoke } from './campaigns-harness.ts';
import { type Env, startEnv } from './messages-harness.ts';
import { seedTenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

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

  it('a lost tick: the campaign-starts job queues the chain again once it is late; the campaign finishes, nobody twice', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 4, {}, 5);
    const h = harness();
    const job = async () => {
      const clock: typeof h.clock = [];
      const report = await queueDueStarts(h.now(), async (message, delay) => void clock.push({ message, delay }));
      // The job sees every tenant's campaigns: only this one's ticks are this test's.
      const mine = clock.filter(({ message }) => message.companyId === t.companyId);
      h.clock.push(...mine);
      return { report, mine };
    };
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    expect(await runTick(h.nextTick(), false, h.deps)).toBe('shipped');
    for (const send of h.sends) await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
    // The next tick is lost (gone to the DLQ): nothing is queued any more.
    expect(h.clock.splice(0)).toHaveLength(1);
    // On time (the chain is only 5 s past its target) the job leaves the chain alone.
    h.advance(5_000);
    expect((await job()).mine).toEqual([]);
    h.advance(STALE_CHAIN_MS + 1_000);
    const revived = await job();
    expect(revived.mine).toEqual([{ message: expect.objectContaining({ kind: 'tick', connectionId, recover: true }), delay: 0 }]);
    expect(revived.report.revived).toBeGreaterThanOrEqual(1);
    // A second run before the revived tick acts queues the same seq again: one of the two does nothing.
    expect((await job()).mine).toHaveLength(1);
    expect(h.clock.map(({ message }) => message)).toEqual([h.clock[0]?.message, h.clock[0]?.message]);
    const settled = new Set<string>();
    while (h.clock.length) {
      await h.drain(1, 1);
      for (const send of h.sends)
        if (!settled.has(send.messageId)) {
          settled.add(send.messageId);
          await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
        }
    }
    expect(h.sends.map((s) => s.number).sort()).toEqual(items.map((item) => item.number).sort());
    expect(await getRun(t.companyId, campaignId)).toMatchObject({ valid: 4, queued: 4, delivered: 4, done: true });
    expect((await getCampaign(t.companyId, campaignId))?.status).toBe('FINALIZADA');
    // Finished: no longer running, so the job has nothing to revive for it however late its chain.
    h.advance(STALE_CHAIN_MS * 2);
    expect((await job()).mine).toEqual([]);
  });

  it('a tick that died after its commit and before its sends, then went to the DLQ: the revived chain sends its batch, once', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 3, {}, 5);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    // Tick 1 commits Pessoa 0's shipping, then dies on its send; every retry fails the same way until the DLQ takes it.
    h.failNext();
    await expect(runTick(h.nextTick(), false, h.deps)).rejects.toThrow('killed after the commit');
    expect(h.sends).toEqual([]);
    expect(h.clock).toEqual([]);
    h.advance(STALE_CHAIN_MS + 10_000);
    const clock: typeof h.clock = [];
    await queueDueStarts(h.now(), async (message, delay) => void clock.push({ message, delay }));
    h.clock.push(...clock.filter(({ message }) => message.companyId === t.companyId));
    expect(h.clock).toHaveLength(1);
    await h.drain();
    for (const send of h.sends) await settleCampaignSend(result(t.companyId, connectionId, send), h.effects);
    expect(h.sends.map((s) => s.body).sort()).toEqual(['Oi Pessoa 0', 'Oi Pessoa 1', 'Oi Pessoa 2']);
    expect(h.sends.map((s) => s.number).sort()).toEqual(items.map((item) => item.number).sort());
    expect((await getCampaign(t.companyId, campaignId))?.status).toBe('FINALIZADA');
  });
});
