/**
 * The real process (main.ts, as the local stack and Fargate run it): SIGTERM stops it within the
 * budget with exit code 0, its session stopped with credentials kept and its lease released but
 * still wanted, so the next host takes it at once and reconnects without a QR.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createConnection, getConnection } from '@conversa/functions/storage/connections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../infra/local/whatsapp-simulator/server.ts';
import { getLease } from '../src/storage/leases.ts';
import { type Backends, eventually, sendCommand, startBackends } from './support/backends.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('session-host process', () => {
  let backends: Backends;
  let simulator: Simulator;
  const children: ChildProcess[] = [];

  function spawnHost(hostId: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'session-host/src/main.ts')], {
      cwd: repoRoot,
      env: { ...process.env, ...backends.env, SESSION_PROVIDER: 'simulator', SIMULATOR_URL: simulator.url, HOST_ID: hostId },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  beforeAll(async () => {
    backends = await startBackends();
    simulator = await startSimulator({ scanMs: 100 });
    const now = new Date().toISOString();
    await createConnection({
      id: 1,
      companyId: 61,
      name: 'Main',
      status: 'DISCONNECTED',
      qrcode: '',
      retries: 0,
      number: '',
      queueIds: [],
      createdAt: now,
      updatedAt: now,
    } as unknown as Parameters<typeof createConnection>[0]);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await simulator?.close();
    await backends?.stop();
  });

  it('SIGTERM: exit 0 within 10 s, session stopped with credentials kept, lease released and still wanted; the next host reconnects without a QR', async () => {
    // Prepare
    const first = spawnHost('proc-host-1');
    await sendCommand(backends, { kind: 'start', companyId: 61, connectionId: 1, commandId: 'start' });
    await eventually(
      async () => (await getConnection(61, 1))?.status === 'CONNECTED',
      `CONNECTED (host output: ${first.output()})`,
      30_000,
    );
    expect((await getLease({ companyId: 61, connectionId: 1 }))?.owner).toBe('proc-host-1');
    // Act
    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    const code = await first.exited;
    const stopMs = Date.now() - signalledAt;
    const lease = await getLease({ companyId: 61, connectionId: 1 });
    const phone = ((await (await fetch(`${simulator.url}/api/connections`)).json()) as { connections: { id: string; online: boolean }[] })
      .connections[0];
    // Assess
    expect(code, first.output()).toBe(0);
    expect(stopMs).toBeLessThan(10_000);
    expect(lease).toMatchObject({ wanted: true });
    expect(lease?.owner).toBeUndefined();
    expect(phone).toMatchObject({ id: '61.1', online: false });
    console.log(`SIGTERM -> exit 0 in ${stopMs} ms`);

    // Act: the next host takes the released session at its first scan, with the kept credentials.
    const statuses = new Set<string>();
    const second = spawnHost('proc-host-2');
    await eventually(
      async () => {
        const record = await getConnection(61, 1);
        if (record) statuses.add(record.status);
        return (await getLease({ companyId: 61, connectionId: 1 }))?.owner === 'proc-host-2' && record?.status === 'CONNECTED';
      },
      `proc-host-2 running the session (output: ${second.output()})`,
      30_000,
    );
    expect(statuses.has('qrcode')).toBe(false);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
