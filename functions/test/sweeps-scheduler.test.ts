/**
 * The local stand-in for the EventBridge rules (infra/local/scheduler.ts): every declaration of
 * schedules.ts with a handler runs on its timer with a Scheduled Event; a failing run does not stop
 * the timer; a run still going is not started twice; stop() waits for the run in flight.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalSchedules, startSchedules } from '../../infra/local/scheduler.ts';
import { jobs } from '../src/declarations/jobs.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let started: LocalSchedules | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

describe('local schedules', () => {
  it('runs every declared job that has a handler (the ticket sweeps among them)', async () => {
    const log: string[] = [];
    // The real declarations and handler files, on a timer that never fires during the test.
    started = startSchedules({ region: 'us-east-1', log: (line) => log.push(line), intervalMs: () => 3_600_000 });
    expect(started.running).toEqual(jobs.map((s) => s.name));
    expect(started.running).toContain('ticket-sweeps');
    expect(started.running).toContain('schedule-sends');
    expect(log).toEqual([]);
  });

  it('invokes the handler with a Scheduled Event at each interval and goes on after a failure', async () => {
    const events: { source: string; 'detail-type': string; region: string; resources: string[] }[] = [];
    const log: string[] = [];
    started = startSchedules({
      region: 'eu-west-1',
      log: (line) => log.push(line),
      declarations: [{ name: 'tick', rateMinutes: 1, timeoutSeconds: 5 }],
      handlers: {
        tick: async (event) => {
          events.push(event);
          if (events.length === 1) throw new Error('first run fails');
        },
      },
      intervalMs: () => 40,
    });
    await wait(250);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events[0]).toMatchObject({
      source: 'aws.events',
      'detail-type': 'Scheduled Event',
      region: 'eu-west-1',
      resources: ['arn:aws:events:eu-west-1:000000000000:rule/conversa-tick'],
    });
    expect(log.filter((line) => line.includes('tick failed'))).toHaveLength(1);
  });

  it('skips a run while the previous one is going, and stop() waits for it', async () => {
    let active = 0;
    let maxActive = 0;
    let finished = 0;
    started = startSchedules({
      region: 'us-east-1',
      log: () => undefined,
      declarations: [{ name: 'slow', rateMinutes: 1, timeoutSeconds: 5 }],
      handlers: {
        slow: async () => {
          active++;
          maxActive = Math.max(maxActive, active);
          await wait(120);
          active--;
          finished++;
        },
      },
      intervalMs: () => 20,
    });
    await wait(200);
    await started.stop();
    started = undefined;
    expect(maxActive).toBe(1);
    expect(active).toBe(0);
    const after = finished;
    await wait(100);
    expect(finished).toBe(after);
  });
});
