/** The row's service level between server events (issue 22 §3): the clock moves a target to due soon and breached. */
import type { TicketSla } from '@conversa/functions/contracts/sla';
import { describe, expect, it } from 'vitest';
import { liveSlaState } from '../src/features/tickets/api/sla.ts';
import { timeLeft } from '../src/features/tickets/components/sla-chip.tsx';

const sla: TicketSla = {
  firstResponseDueAt: '2026-12-01T10:10:00.000Z',
  resolutionDueAt: null,
  state: 'ok',
  nextDueAt: '2026-12-01T10:10:00.000Z',
  nextWarnAt: '2026-12-01T10:08:00.000Z',
};
const at = (iso: string) => Date.parse(iso);

describe('liveSlaState', () => {
  it('passes the warning and the due time without an event', () => {
    expect(liveSlaState(sla, at('2026-12-01T10:05:00.000Z'))).toBe('ok');
    expect(liveSlaState(sla, at('2026-12-01T10:09:00.000Z'))).toBe('dueSoon');
    expect(liveSlaState(sla, at('2026-12-01T10:11:00.000Z'))).toBe('breached');
  });
  it('never goes back from breached or met', () => {
    expect(liveSlaState({ ...sla, state: 'breached' }, at('2026-12-01T10:00:00.000Z'))).toBe('breached');
    expect(liveSlaState({ ...sla, state: 'met', nextDueAt: null, nextWarnAt: null }, at('2026-12-02T00:00:00.000Z'))).toBe('met');
  });
});

describe('timeLeft', () => {
  it('says minutes, hours or days', () => {
    expect(timeLeft(12 * 60_000)).toBe('12 min');
    expect(timeLeft(10_000)).toBe('1 min');
    expect(timeLeft(3 * 3_600_000 + 5 * 60_000)).toBe('3 h');
    expect(timeLeft(3 * 86_400_000)).toBe('3 d');
  });
});
