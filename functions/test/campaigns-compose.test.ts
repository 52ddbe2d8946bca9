/**
 * The pure parts of campaign shipping (domain/campaigns/compose.ts): the message choice, the
 * placeholders, the send ids and the pace (seconds, with the long pause after every N sends).
 */
import { describe, expect, it } from 'vitest';
import {
  delayToward,
  fillPlaceholders,
  MAX_TICK_BATCH,
  nextPace,
  parseShipMessageId,
  pickMessages,
  shipMessageId,
  tickBatchSize,
} from '../src/domain/campaigns/compose.ts';

const none = { message1: null, message2: null, message3: null, message4: null, message5: null, confirmation: false };

describe('message choice', () => {
  it('picks only among the filled messages, each of them reachable', () => {
    const campaign = { ...none, message2: 'dois', message4: 'quatro', message5: '   ' };
    expect(pickMessages(campaign, () => 0)).toEqual({ message: 'dois' });
    expect(pickMessages(campaign, () => 0.99)).toEqual({ message: 'quatro' });
    const seen = new Set(Array.from({ length: 100 }, (_, i) => pickMessages(campaign, () => i / 100)?.message));
    expect([...seen].sort()).toEqual(['dois', 'quatro']);
    expect(pickMessages(none, () => 0.5)).toBeUndefined();
  });

  it("takes the same tab's confirmation message, else a filled one", () => {
    const campaign = {
      ...none,
      confirmation: true,
      message1: 'm1',
      message3: 'm3',
      confirmationMessage1: 'c1',
      confirmationMessage2: 'c2',
    };
    expect(pickMessages(campaign, () => 0)).toEqual({ message: 'm1', confirmation: 'c1' });
    // Tab 3 has no confirmation message: one of the filled ones (c1 or c2).
    expect(['c1', 'c2']).toContain(pickMessages(campaign, () => 0.9)?.confirmation);
    expect(pickMessages({ ...campaign, confirmation: false }, () => 0)).toEqual({ message: 'm1' });
  });
});

describe('placeholders', () => {
  const who = { name: 'Ana Lúcia', number: '5511999990000', email: 'ana@loja.test' };
  it('fills {nome}, {numero}, {email} and the variables, any case, and leaves unknown braces', () => {
    const text = 'Oi {nome} ({NUMERO}, {Email}) da {loja}: {cupom}! {desconhecido} {}';
    expect(
      fillPlaceholders(text, who, [
        { key: 'loja', value: 'Loja Azul' },
        { key: 'cupom', value: 'BF10 😀' },
      ]),
    ).toBe('Oi Ana Lúcia (5511999990000, ana@loja.test) da Loja Azul: BF10 😀! {desconhecido} {}');
  });
  it('never lets a variable override a built-in, and does not fill placeholders inside filled values twice', () => {
    expect(fillPlaceholders('{nome}', who, [{ key: 'nome', value: 'X' }])).toBe('Ana Lúcia');
    expect(fillPlaceholders('{nome}', { ...who, name: '{email}' }, [])).toBe('{email}');
  });
});

describe('send ids', () => {
  it('are fixed per campaign, item and part, and read back', () => {
    expect(shipMessageId(7, 42, 'm')).toBe('cmp-7-42-m');
    expect(parseShipMessageId('cmp-7-42-f3')).toEqual({ campaignId: 7, itemId: 42, part: 'f3' });
    expect(parseShipMessageId('cmp-7-42-c')).toEqual({ campaignId: 7, itemId: 42, part: 'c' });
    for (const bad of ['cmp-7-42', 'cmp-x-42-m', '0193f0aa-7e1c-7000-8000-000000000000', 'cmp-7-42-m-1'])
      expect(parseShipMessageId(bad)).toBeUndefined();
  });
});

describe('pace', () => {
  it('waits messageInterval seconds between sends and greaterInterval after every longerIntervalAfter sends', () => {
    const pace = { messageInterval: 5, longerIntervalAfter: 3, greaterInterval: 60 };
    let since = 0;
    const waits: number[] = [];
    for (let send = 0; send < 7; send++) {
      expect(tickBatchSize(pace, since)).toBe(1);
      const next = nextPace(pace, since, 1);
      waits.push(next.waitSeconds);
      since = next.sinceLongPause;
    }
    expect(waits).toEqual([5, 5, 60, 5, 5, 60, 5]);
  });

  it('with no interval, ships in batches that stop exactly at each long pause', () => {
    const pace = { messageInterval: 0, longerIntervalAfter: 5, greaterInterval: 10 };
    expect(tickBatchSize(pace, 0)).toBe(5);
    expect(tickBatchSize(pace, 3)).toBe(2);
    expect(nextPace(pace, 0, 5)).toEqual({ waitSeconds: 10, sinceLongPause: 0 });
    expect(nextPace(pace, 0, 3)).toEqual({ waitSeconds: 0, sinceLongPause: 3 });
    expect(tickBatchSize({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 }, 0)).toBe(MAX_TICK_BATCH);
    // A pause of 0 (or after 0 sends) is no pause at all.
    expect(nextPace({ messageInterval: 0, longerIntervalAfter: 5, greaterInterval: 0 }, 4, 1)).toEqual({
      waitSeconds: 0,
      sinceLongPause: 5,
    });
  });

  it('a tick that shipped nothing (all delivered or invalid) goes on at once', () => {
    expect(nextPace({ messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 }, 4, 0)).toEqual({
      waitSeconds: 0,
      sinceLongPause: 4,
    });
  });

  it('rounds the SQS delay to the nearest second toward the target, within 0..900', () => {
    expect(delayToward(10_400, 0)).toBe(10);
    expect(delayToward(10_600, 0)).toBe(11);
    expect(delayToward(-5000, 0)).toBe(0);
    expect(delayToward(2_000_000, 0)).toBe(900);
  });
});
