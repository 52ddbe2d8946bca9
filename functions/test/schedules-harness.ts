/**
 * Shared by the scheduled-messages tests (the API in schedules.test.ts, the sender in
 * schedules-sender.test.ts): requests through the API, and the sender's collaborators recorded.
 */
import type { SessionCommand } from '#contracts/session-events';
import type { Effects } from '#domain/messages/effects';
import { invoke } from './messages-harness.ts';
import type { Tenant } from './users-harness.ts';

export const createSchedule = (token: string, json: Record<string, unknown>) => invoke('POST /schedules', { token, json });
export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A contact of the tenant through the API. */
export async function newContact(tenant: Tenant, name = 'Ana Agenda'): Promise<number> {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const res = await invoke('POST /contacts', { token: tenant.admin.token, json: { name, number } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export /** The sender's collaborators, recorded: commands and events in memory, a clock the test moves. */
function recorder(start = new Date()) {
  const commands: SessionCommand[] = [];
  const events: { event: string; data: unknown }[] = [];
  const sleeps: number[] = [];
  let now = start;
  const effects: Effects = {
    sendCommand: async (command) => {
      commands.push(command);
    },
    publish: async (_companyId, event, data) => {
      events.push({ event, data });
    },
    now: () => now,
  };
  return {
    commands,
    events,
    sleeps,
    deps: {
      effects,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now = new Date(now.getTime() + ms);
      },
    },
    setNow: (at: Date) => {
      now = at;
    },
  };
}
