/**
 * The campaign engine's test harness (campaigns-engine.test.ts, campaigns-audiences.test.ts): the
 * engine's clock and session commands recorded, the clock moved by hand, ticks run in order.
 */
import { expect } from 'vitest';
import type { SessionCommand } from '#contracts/session-events';
import type { CampaignClockMessage } from '#domain/campaigns/clock';
import { type EngineDeps, runTick } from '#domain/campaigns/engine';
import type { Effects } from '#domain/messages/effects';
import { invoke, newCampaign, newItem, newList } from './campaigns-harness.ts';
import { createConnection } from './messages-harness.ts';
import type { Tenant } from './users-harness.ts';

export type Send = Extract<SessionCommand, { kind: 'send' }>;

export function harness() {
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
  return {
    clock,
    sends,
    events,
    effects,
    deps,
    drain,
    nextTick,
    failNext: () => (failNextSend = true),
    /** The harness's clock, moved by `drain`, `nextTick` and `advance`. */
    now: () => new Date(nowMs),
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

export async function setup(t: Tenant, count: number, fields: Record<string, unknown> = {}, interval = 0) {
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

export const result = (companyId: number, connectionId: number, send: Send, error?: string) => ({
  kind: 'campaignResult' as const,
  companyId,
  connectionId,
  campaignId: send.campaignId as number,
  messageId: send.messageId,
  number: send.number,
  ...(error ? { error } : { waMessageId: `WA-${send.messageId}`, timestamp: Date.now() }),
});
