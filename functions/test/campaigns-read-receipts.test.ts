/**
 * The phone's receipts reach the campaign report (issue 25: "each recipient with their state (sent,
 * delivered, read, invalid, failed)"; the ship record kept no receipt, so `read` never appeared).
 * A campaign message's WhatsApp link names its ship record (campaigns/thread.ts), so the ack path
 * (inbound/updates.ts), which reads the link anyway, records delivered and read on it once.
 * Through the inbound pipeline as the queue delivers events, over DynamoDB Local.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCampaign } from '#domain/campaigns/engine';
import { recipientState } from '#domain/campaigns/recipients';
import { processInboundEvent } from '#domain/inbound/pipeline';
import { getShipRecord } from '#storage/campaigns/ships';
import { getMessageByWaId } from '#storage/messages/messages';
import { getWaLink } from '#storage/messages/wa-links';
import { harness, result, type Send, setup } from './campaigns-engine-harness.ts';
import { type Env, startEnv } from './messages-harness.ts';
import { seedTenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

const ack = (companyId: number, connectionId: number, send: Send, value: number) => ({
  kind: 'ack' as const,
  companyId,
  connectionId,
  waMessageId: `WA-${send.messageId}`,
  number: send.number,
  ack: value,
});

async function stateOf(companyId: number, campaignId: number, itemId: number) {
  const ship = await getShipRecord(companyId, campaignId, itemId);
  return recipientState({ valid: true, name: '', number: '' }, ship);
}

describe("a campaign message's receipts", () => {
  it('moves its recipient to read on a read ack, once; a delivery ack keeps it delivered', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 2);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    await h.drain();
    const [toRead, toReceive] = items.map((item) => h.sends.find((s) => s.number === item.number) as Send) as [Send, Send];
    for (const send of [toRead, toReceive])
      await processInboundEvent({ ...result(t.companyId, connectionId, send), body: send.body }, h.effects);
    const [readItem, receiveItem] = items as [(typeof items)[number], (typeof items)[number]];
    expect((await stateOf(t.companyId, campaignId, readItem.id)).state).toBe('delivered');

    h.advance(60_000);
    await processInboundEvent(ack(t.companyId, connectionId, toRead, 3), h.effects);
    await processInboundEvent(ack(t.companyId, connectionId, toRead, 4), h.effects);
    await processInboundEvent(ack(t.companyId, connectionId, toReceive, 3), h.effects);
    const read = await stateOf(t.companyId, campaignId, readItem.id);
    expect(read).toMatchObject({ state: 'read', at: h.now().toISOString() });
    expect((await stateOf(t.companyId, campaignId, receiveItem.id)).state).toBe('delivered');
    // The message in the thread shows it read too (its own ack).
    expect((await getMessageByWaId(t.companyId, connectionId, `WA-${toRead.messageId}`))?.ack).toBe(4);

    // The same receipt again, a played one, or a late delivery: nothing moves.
    h.advance(60_000);
    for (const value of [4, 5, 3]) await processInboundEvent(ack(t.companyId, connectionId, toRead, value), h.effects);
    expect(await stateOf(t.companyId, campaignId, readItem.id)).toEqual(read);
  });

  it("the phone's echo stored before the result: its link learns the ship record, and the read ack reaches it", async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 1);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    await h.drain();
    const send = h.sends[0] as Send;
    const settled = { ...result(t.companyId, connectionId, send), body: send.body };
    const echo = {
      id: `WA-${send.messageId}`,
      fromMe: true,
      number: send.number,
      isGroup: false,
      timestamp: Date.now(),
      body: send.body,
    };
    await processInboundEvent({ kind: 'message', companyId: t.companyId, connectionId, message: echo }, h.effects);
    await processInboundEvent(settled, h.effects);
    expect((await getWaLink(t.companyId, connectionId, echo.id))?.campaignShip).toEqual({ campaignId, itemId: items[0]?.id });
    await processInboundEvent(ack(t.companyId, connectionId, send, 4), h.effects);
    expect((await stateOf(t.companyId, campaignId, items[0]?.id ?? 0)).state).toBe('read');
  });
});
