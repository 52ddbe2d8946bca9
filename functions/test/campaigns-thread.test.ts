/**
 * A campaign's sends in the contact's conversation (domain/campaigns/thread.ts, issue 25 item 3):
 * each sent part is stored once on the contact's ticket, marked campaign, however often its result
 * is delivered; a contact without an active ticket gets one created closed (the slot's latest, so
 * the answer reopens it); one with an open or pending ticket gets the message there; a failed send
 * leaves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#commons/dynamodb';
import { startCampaign } from '#domain/campaigns/engine';
import { settleCampaignSend } from '#domain/campaigns/results';
import { processInboundEvent } from '#domain/inbound/pipeline';
import { getContactByNumber } from '#storage/contacts/contacts';
import { counterDeltas, trackingFields } from '#storage/dashboard-counters';
import { listMessagesPage } from '#storage/messages/messages';
import { listContactTickets } from '#storage/tickets/lists';
import { getSlot } from '#storage/tickets/tickets';
import { harness, type Send, setup } from './campaigns-engine-harness.ts';
import { type Env, seedTicket, startEnv } from './messages-harness.ts';
import { seedTenant } from './users-harness.ts';

let env: Env;

beforeAll(async () => {
  env = await startEnv();
}, 120_000);
afterAll(async () => env?.stop());

/** The session-host's report of a send, with what it sent (send-executor.ts campaignOutcome). */
const sent = (companyId: number, connectionId: number, send: Send, timestamp: number) => ({
  kind: 'campaignResult' as const,
  companyId,
  connectionId,
  campaignId: send.campaignId as number,
  messageId: send.messageId,
  number: send.number,
  waMessageId: `WA-${send.messageId}`,
  timestamp,
  body: send.body,
});

async function ticketsOf(companyId: number, number: string) {
  const contact = await getContactByNumber(companyId, number);
  if (!contact) return [];
  return listContactTickets(companyId, contact.id);
}

/** A tenant's campaign to one list contact, started: its one send as the engine queued it. */
async function oneSend() {
  const t = await seedTenant(env.stack);
  const { connectionId, campaignId } = await setup(t, 1);
  const h = harness();
  await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
  await h.drain();
  return { t, connectionId, h, send: h.sends[0] as Send };
}

describe("a campaign's sends in the conversation", () => {
  it('a ticket created closed begins no conversation on the dashboard; the answer that reopens it does', () => {
    const at = '2026-03-02T12:00:00.000Z';
    const created = {
      companyId: 1,
      id: 7,
      status: 'closed' as const,
      userId: null,
      queueId: null,
      createdAt: at,
      rating: null,
      ratedAt: null,
    };
    const closed = { ...created, ...trackingFields(undefined, created, at) };
    expect(closed).toMatchObject({ convAt: null, queuedAt: null, startedAt: null });
    expect(counterDeltas(undefined, closed, at, 'UTC').size).toBe(0);
    const later = '2026-03-02T12:30:00.000Z';
    const reopened = { ...closed, status: 'pending' as const };
    const tracked = { ...reopened, ...trackingFields(closed, reopened, later) };
    expect(tracked.convAt).toBe(later);
    expect([...counterDeltas(closed, tracked, later, 'UTC').values()]).toEqual([{ pending: 1, h12: 1 }]);
  });

  it('stores each sent message once, marked campaign, on a ticket created closed that the slot points at', async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 2);
    const h = harness();
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    await h.drain();
    expect(h.sends).toHaveLength(2);
    const at = Date.now();
    // Delivered twice, and once more re-reported later (the host's record keeps the time; the link guards anyway).
    for (const send of h.sends) {
      await settleCampaignSend(sent(t.companyId, connectionId, send, at), h.effects);
      await settleCampaignSend(sent(t.companyId, connectionId, send, at), h.effects);
      await settleCampaignSend(sent(t.companyId, connectionId, send, at + 5000), h.effects);
    }
    // The campaign's attachment follows its message a moment later: same conversation, not a second closed ticket.
    const firstSend = h.sends[0] as Send;
    const attachment = { ...firstSend, messageId: firstSend.messageId.replace(/-m$/, '-a'), body: '' };
    await settleCampaignSend(
      { ...sent(t.companyId, connectionId, attachment, at + 1000), media: { key: 'campaigns/x.pdf', mimetype: 'application/pdf' } },
      h.effects,
    );
    for (const [i, item] of items.entries()) {
      const tickets = await ticketsOf(t.companyId, item.number);
      expect(tickets).toHaveLength(1);
      const ticket = tickets[0] as (typeof tickets)[number];
      expect(ticket).toMatchObject({ status: 'closed', whatsappId: connectionId, unreadMessages: 0 });
      const { messages } = await listMessagesPage(t.companyId, ticket.id, { limit: 10 });
      if (i === 0) {
        expect(messages.shift()).toMatchObject({ body: '', mediaType: 'application', mediaPath: 'campaigns/x.pdf', origin: 'campaign' });
        expect(ticket.lastMessage).not.toBe('');
      }
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        body: `Oi Pessoa ${i}`,
        fromMe: true,
        origin: 'campaign',
        pending: false,
        ack: 1,
        error: null,
        waId: `WA-${h.sends[i]?.messageId}`,
      });
      // Not holding the slot (nobody's Pending list), but its latest ticket: the answer reopens this one.
      const contact = await getContactByNumber(t.companyId, item.number);
      expect(await getSlot(t.companyId, contact?.id ?? 0, connectionId)).toMatchObject({ ticketId: ticket.id, active: false });
    }
  });

  it('to a number with no contact yet, writes the contact, its closed ticket and the message in one transaction', async () => {
    const { t, connectionId, h, send } = await oneSend();
    const transactions: string[][] = [];
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        const items = (args.input as { TransactItems?: Record<string, { Key?: { sk: string }; Item?: { sk: string } }>[] }).TransactItems;
        if (context.commandName === 'TransactWriteItemsCommand' && items)
          transactions.push(items.map((item) => String(Object.values(item)[0]?.Key?.sk ?? Object.values(item)[0]?.Item?.sk)));
        return next(args);
      },
      { step: 'initialize', name: 'campaignFirstSend' },
    );
    try {
      await settleCampaignSend(sent(t.companyId, connectionId, send, Date.now()), h.effects);
    } finally {
      documentClient().middlewareStack.remove('campaignFirstSend');
    }

    const ours = transactions.filter((sks) => sks.includes('GUARD') || sks.some((sk) => sk.startsWith('MSG#')));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toEqual(expect.arrayContaining(['GUARD', 'CONTACT', 'TICKET', 'WAMSG']));
    expect(new Set(ours[0]).size).toBe(ours[0]?.length);
    const [ticket] = await ticketsOf(t.companyId, send.number);
    expect(ticket).toMatchObject({ status: 'closed', unreadMessages: 0, lastMessage: send.body });
    const contact = await getContactByNumber(t.companyId, send.number);
    expect(await getSlot(t.companyId, contact?.id ?? 0, connectionId)).toMatchObject({ ticketId: ticket?.id, active: false });
  });

  it("goes on the contact's pending ticket when there is one, and a failed send stores nothing", async () => {
    const t = await seedTenant(env.stack);
    const { connectionId, items, campaignId } = await setup(t, 2);
    const [first, failing] = items as { number: string }[] as [{ number: string }, { number: string }];
    const h = harness();
    // A contact who already talks to us on this connection (pending), reached by the first send.
    const pending = await seedTicket(t, connectionId);
    await startCampaign(t.companyId, campaignId, ['INATIVA'], h.deps);
    await h.drain();
    const sendTo = (number: string) => h.sends.find((s) => s.number === number) as Send;
    await settleCampaignSend(
      { ...sent(t.companyId, connectionId, sendTo(first.number), Date.now()), number: pending.contact.number },
      h.effects,
    );
    const { messages } = await listMessagesPage(t.companyId, pending.id, { limit: 10 });
    expect(messages.map((m) => [m.body, m.origin])).toEqual([['Oi Pessoa 0', 'campaign']]);
    expect((await ticketsOf(t.companyId, pending.contact.number)).map((x) => x.status)).toEqual(['pending']);

    const failed = sendTo(failing.number);
    await settleCampaignSend(
      {
        kind: 'campaignResult',
        companyId: t.companyId,
        connectionId,
        campaignId,
        messageId: failed.messageId,
        number: failed.number,
        error: 'ERR_SENDING_WAPP_MSG',
      },
      h.effects,
    );
    expect(await ticketsOf(t.companyId, failing.number)).toEqual([]);
  });

  it("labels the phone's echo of a send that arrived before its result, storing nothing twice", async () => {
    const { t, connectionId, h, send } = await oneSend();
    const result = sent(t.companyId, connectionId, send, Date.now());
    // Baileys reports our own send as a message of ours, often before the host reports the result.
    const echo = {
      id: result.waMessageId,
      fromMe: true,
      number: send.number,
      isGroup: false,
      timestamp: result.timestamp,
      body: send.body,
    };
    await processInboundEvent({ kind: 'message', companyId: t.companyId, connectionId, message: echo }, h.effects);
    await settleCampaignSend(result, h.effects);
    const tickets = await ticketsOf(t.companyId, send.number);
    expect(tickets).toHaveLength(1);
    const { messages } = await listMessagesPage(t.companyId, (tickets[0] as { id: number }).id, { limit: 10 });
    expect(messages.map((m) => [m.body, m.fromMe, m.origin])).toEqual([[send.body, true, 'campaign']]);
  });
});
