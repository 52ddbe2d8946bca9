import type { SlaState, TicketSla } from '@conversa/functions/contracts/sla';

/**
 * A ticket's service-level state now (issue 22 §3): the server's, moved on by the clock (a target
 * still open passes its warning and due times without any event), never back (a breach stays).
 */
export function liveSlaState(sla: TicketSla, now: number): SlaState {
  if (sla.state === 'breached' || sla.state === 'met') return sla.state;
  if (sla.nextDueAt && now > Date.parse(sla.nextDueAt)) return 'breached';
  if (sla.nextWarnAt && now >= Date.parse(sla.nextWarnAt)) return 'dueSoon';
  return sla.state;
}
