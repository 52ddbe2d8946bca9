/**
 * What this host does with one session command. The answer is either `done` (its effect is durable:
 * delete it from the queue) or `defer` (give it back to the queue after a delay, for the owner or
 * for later).
 *
 * - start / newQr: run the session here unless another live host holds it (then it is routed there)
 *   or this host is full (then another host's poller gets it).
 * - logout: the holder logs out; with no live holder any host does it.
 * - send / delete / edit (and importContacts, checkNumbers): only the holder, once its session is CONNECTED. A session wanted but held
 *   by nobody (its host died) is taken over here on demand. With nobody to run it (logged out), the
 *   command waits; a send still undelivered after `sendDeadlineMs` is reported as sendFailed.
 */
import type { SessionCommand } from '@conversa/functions/contracts/session-events';
import type { HostTimings } from './config.ts';
import type { InboundPublisher } from './inbound-publisher.ts';
import type { HostMetrics } from './metrics.ts';
import { publishNumberChecks } from './number-checks.ts';
import { publishPhoneContacts } from './phone-contacts.ts';
import type { SessionHandle } from './provider.ts';
import { executeSend, failSend, NOT_INITIALIZED, type SendHooks } from './send-executor.ts';
import type { Logger, SessionManager } from './session-manager.ts';
import { getLease, heldByOther, isFree } from './storage/leases.ts';

export type Outcome = { kind: 'done' } | { kind: 'defer'; seconds: number; reason: string };

export interface CommandMeta {
  /** When the command first entered the queue (epoch ms), across re-enqueues. */
  firstSentAt: number;
}

export interface RouterDeps {
  manager: SessionManager;
  inbound: InboundPublisher;
  timings: HostTimings;
  log: Logger;
  metrics: HostMetrics;
  sendHooks?: SendHooks;
  now?: () => number;
}

const done: Outcome = { kind: 'done' };

export function createCommandRouter(deps: RouterDeps) {
  const now = deps.now ?? Date.now;
  const { manager, timings } = deps;
  const sendContext = { inbound: deps.inbound, metrics: deps.metrics, hooks: deps.sendHooks, now };
  const forward = (reason: string): Outcome => ({ kind: 'defer', seconds: timings.forwardDelaySeconds, reason });
  const wait = (reason: string): Outcome => ({ kind: 'defer', seconds: timings.ownerlessDelaySeconds, reason });

  async function lifecycle(command: Extract<SessionCommand, { kind: 'start' | 'newQr' | 'logout' }>): Promise<Outcome> {
    const key = { companyId: command.companyId, connectionId: command.connectionId };
    if (!manager.owns(key) && heldByOther(await getLease(key), manager.hostId, now())) return forward('held by another host');
    if (command.kind === 'logout') {
      return (await manager.logout(key)) === 'done' ? done : forward('held by another host');
    }
    // A full host leaves a new session to one with room: the command comes back for another poller.
    if (!manager.owns(key) && manager.isFull()) {
      deps.log.warn('host full: start left to a host with room', { key, kind: command.kind });
      return forward('host full');
    }
    const started = await manager.startSession(key, {
      fresh: command.kind === 'newQr',
      pairingNumber: command.kind === 'start' ? command.usePairingCode : undefined,
    });
    return started ? done : forward('held by another host');
  }

  async function messageCommand(
    command: Extract<SessionCommand, { kind: 'send' | 'delete' | 'edit' }>,
    meta: CommandMeta,
  ): Promise<Outcome> {
    const key = { companyId: command.companyId, connectionId: command.connectionId };
    if (!manager.owns(key)) {
      const lease = await getLease(key);
      if (heldByOther(lease, manager.hostId, now())) return forward('held by another host');
      // Wanted but nobody runs it (its host died, or this host restarted): take it now, not at the next scan.
      if (lease?.wanted && (isFree(lease, now()) || lease.owner === manager.hostId)) await manager.takeOver(key);
    }
    if (manager.owns(key) && (await manager.waitConnected(key, timings.readyWaitMs))) {
      const handle = manager.handleOf(key);
      if (handle) {
        if (command.kind === 'send') await executeSend(command, handle, sendContext);
        else if (command.kind === 'delete') await handle.deleteMessage(command);
        else await handle.editMessage(command);
        return done;
      }
    }
    if (now() - meta.firstSentAt >= timings.sendDeadlineMs) {
      if (command.kind === 'send') {
        await failSend(command, NOT_INITIALIZED, sendContext);
      } else {
        deps.log.warn(`${command.kind} dropped: no connected session for too long`, { key, waMessageId: command.waMessageId });
      }
      return done;
    }
    return manager.owns(key) ? wait('session not connected') : wait('no host runs the session');
  }

  /**
   * A request to the phone (its contacts, a check of numbers): like a message command, only the
   * holder, once CONNECTED; dropped (logged) when no session connects in time.
   */
  async function sessionRequest(
    command: Extract<SessionCommand, { kind: 'importContacts' | 'checkNumbers' }>,
    meta: CommandMeta,
    run: (handle: SessionHandle) => Promise<void>,
  ): Promise<Outcome> {
    const key = { companyId: command.companyId, connectionId: command.connectionId };
    if (!manager.owns(key)) {
      const lease = await getLease(key);
      if (heldByOther(lease, manager.hostId, now())) return forward('held by another host');
      if (lease?.wanted && (isFree(lease, now()) || lease.owner === manager.hostId)) await manager.takeOver(key);
    }
    if (manager.owns(key) && (await manager.waitConnected(key, timings.readyWaitMs))) {
      const handle = manager.handleOf(key);
      if (handle) {
        await run(handle);
        return done;
      }
    }
    if (now() - meta.firstSentAt >= timings.sendDeadlineMs) {
      deps.log.warn(`${command.kind} dropped: no connected session for too long`, { key, commandId: command.commandId });
      return done;
    }
    return manager.owns(key) ? wait('session not connected') : wait('no host runs the session');
  }

  const importContacts = (command: Extract<SessionCommand, { kind: 'importContacts' }>, meta: CommandMeta) =>
    sessionRequest(command, meta, async (handle) => {
      const count = await publishPhoneContacts(command, handle, deps.inbound);
      const key = { companyId: command.companyId, connectionId: command.connectionId };
      deps.log.info('phone contacts published', { key, importId: command.commandId, count });
    });

  // The numbers stay unchecked when dropped: the next connect of a session of the company checks them.
  const checkNumbers = (command: Extract<SessionCommand, { kind: 'checkNumbers' }>, meta: CommandMeta) =>
    sessionRequest(command, meta, async (handle) => {
      const key = { companyId: command.companyId, connectionId: command.connectionId };
      if (!(await publishNumberChecks(key, command.commandId, command.numbers, handle, deps.inbound)))
        deps.log.warn('checkNumbers: this provider cannot check numbers', { key });
    });

  return {
    async route(command: SessionCommand, meta: CommandMeta): Promise<Outcome> {
      switch (command.kind) {
        case 'start':
        case 'newQr':
        case 'logout':
          return lifecycle(command);
        case 'send':
        case 'delete':
        case 'edit':
          return messageCommand(command, meta);
        case 'importContacts':
          return importContacts(command, meta);
        case 'checkNumbers':
          return checkNumbers(command, meta);
      }
    },
  };
}

export type CommandRouter = ReturnType<typeof createCommandRouter>;
