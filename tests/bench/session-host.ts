/**
 * Session-host memory bench (issue 3): the real session-host process of a local stack this script
 * starts, running 200 idle simulated sessions (connections created through the API, QR scanned by
 * the simulated phones, then nothing). Prints the process's RSS before any session and with 200
 * CONNECTED idle ones, and the RSS each idle session adds. Goal: <= 10 MB per idle session.
 *
 *   npm run bench:session-host
 *   npm run bench:session-host -- --sessions 50
 *
 * RSS is read from /proc (Linux). The stack's log goes to tests/artifacts/bench-session-host.log.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { client, createTenant, superLogin } from '../integration/tenants.ts';
import { ok, sleep, waitUntil } from '../integration/whatsapp-kit.ts';
import { benchLog } from './bench-log.ts';
import { BENCH_ADMIN, runBench } from './run-bench.ts';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '200' } } });
const sessions = Number(values.sessions);

const bench = benchLog('session-host');
const { say } = bench;

/** Resident set size of a process, in bytes. */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/** Median of a few samples a second apart: RSS moves with the GC. */
async function settledRss(pid: number, samples = 5): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < samples; i++) {
    values.push(rssOf(pid));
    await sleep(1000);
  }
  return values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
await runBench(bench, async (stack) => {
  const pid = stack.sessionHost.pid;
  if (!pid) throw new Error('the session-host exited before the bench began; see the log');
  const call = client(stack.apiUrl);
  const superToken = await superLogin(call, BENCH_ADMIN);
  const plan = await ok<{ id: number }>(call, 'POST', '/plans', {
    token: superToken,
    body: { name: `Bench ${Date.now()}`, users: 10, connections: sessions + 10, queues: 10 },
  });
  const tenant = await createTenant(call, superToken, plan.id, 'bench-sh');
  await sleep(3000); // the host's start-up settles (imports, first lease scan)
  const before = await settledRss(pid);
  say(`session-host pid ${pid}: ${mb(before)} RSS with no session; creating ${sessions} connections...`);

  const t0 = Date.now();
  for (let i = 0; i < sessions; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, sessions - i) }, (_, k) =>
        ok(call, 'POST', '/whatsapp', { token: tenant.admin.token, body: { name: `Idle ${i + k + 1}` } }),
      ),
    );
  }
  // The simulated phones scan each QR after a few seconds.
  await waitUntil(
    `${sessions} sessions CONNECTED`,
    async () => {
      const all = await ok<{ status: string }[]>(call, 'GET', '/whatsapp', { token: tenant.admin.token });
      return all.filter((c) => c.status === 'CONNECTED').length >= sessions;
    },
    180_000,
    1000,
  );
  say(`${sessions} sessions CONNECTED in ${((Date.now() - t0) / 1000).toFixed(1)} s; letting them idle...`);
  await sleep(10_000);
  if (stack.sessionHost.pid !== pid) throw new Error('the session-host restarted during the bench');
  const after = await settledRss(pid);
  const perSession = (after - before) / sessions;
  say('');
  say(`session-host bench: ${sessions} idle simulated sessions`);
  say(`  RSS ${mb(before)} with none, ${mb(after)} with ${sessions}: ${mb(perSession)} per idle session added`);
  say(`  (whole process / sessions: ${mb(after / sessions)})`);
  const met = perSession <= 10 * 1024 * 1024;
  say(`  goal <= 10 MB per idle session ${met ? 'met' : 'MISSED'}`);
  return met ? 0 : 1;
});
