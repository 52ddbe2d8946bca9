/**
 * The simulator phone through a real host: a start command shows a QR (stored on the connection, a
 * real QR image on the simulator), the network scans it and the connection becomes CONNECTED with a
 * number; with scanning blocked, three unscanned QRs end in DISCONNECTED and the session is no longer
 * wanted. DynamoDB Local + fauxqs; the status reporter is the real one (connection record).
 */
import { createConnection, getConnection } from '@conversa/functions/storage/connections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../infra/local/whatsapp-simulator/server.ts';
import { type Host, startHost } from '../src/host.ts';
import { createSimulatorProvider } from '../src/providers/simulator.ts';
import { getLease } from '../src/storage/leases.ts';
import { type Backends, eventually, quietLog, sendCommand, startBackends, testConfig } from './support/backends.ts';
import { memoryMedia } from './support/memory-media.ts';

async function newConnection(companyId: number, id: number) {
  const now = new Date().toISOString();
  await createConnection({
    id,
    companyId,
    name: `Conn ${id}`,
    isDefault: false,
    status: 'DISCONNECTED',
    qrcode: '',
    retries: 0,
    number: '',
    queueIds: [],
    createdAt: now,
    updatedAt: now,
  } as unknown as Parameters<typeof createConnection>[0]);
}

describe('simulator QR flow through a host', () => {
  let backends: Backends;
  let simulator: Simulator;
  let host: Host;

  beforeAll(async () => {
    backends = await startBackends();
    simulator = await startSimulator({ scanMs: 400, qrRefreshMs: 300 });
    const provider = createSimulatorProvider({ url: simulator.url, media: memoryMedia() });
    host = startHost({ config: testConfig(backends, 'host-qr'), provider, sqs: backends.client, log: quietLog });
  }, 60_000);

  afterAll(async () => {
    await host?.shutdown();
    await simulator?.close();
    await backends?.stop();
  });

  it('start -> qrcode with a payload -> scanned -> CONNECTED with a number, QR cleared', async () => {
    // Prepare
    await newConnection(11, 1);
    const seen: string[] = [];
    // Act
    await sendCommand(backends, { kind: 'start', companyId: 11, connectionId: 1, commandId: 'c-start-1' });
    const qr = await eventually(async () => {
      const record = await getConnection(11, 1);
      if (record) seen.push(record.status);
      return record?.status === 'qrcode' && record.qrcode ? record : undefined;
    }, 'a QR on the connection');
    const png = await fetch(`${simulator.url}/api/connections/11.1/qr.png`);
    const connected = await eventually(async () => {
      const record = await getConnection(11, 1);
      return record?.status === 'CONNECTED' ? record : undefined;
    }, 'CONNECTED');
    // Assess
    expect(qr.qrcode).toMatch(/^2@/);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await png.arrayBuffer()).byteLength).toBeGreaterThan(200);
    expect(connected.qrcode).toBe('');
    expect(connected.number).toMatch(/^55119\d{8}$/);
    expect((await getLease({ companyId: 11, connectionId: 1 }))?.owner).toBe('host-qr');
    const listed = (await (await fetch(`${simulator.url}/api/connections`)).json()) as { connections: { id: string; status: string }[] };
    expect(listed.connections).toContainEqual(expect.objectContaining({ id: '11.1', status: 'connected' }));
  });

  it('with scanning blocked, three unscanned QRs end in DISCONNECTED and the session is released, not wanted', async () => {
    // Prepare
    await newConnection(11, 2);
    const blocked = await fetch(`${simulator.url}/api/connections/11.2/block-scan`, { method: 'POST', body: '{}' });
    const qrs = new Set<string>();
    // Act
    await sendCommand(backends, { kind: 'start', companyId: 11, connectionId: 2, commandId: 'c-start-2' });
    const ended = await eventually(async () => {
      const record = await getConnection(11, 2);
      if (record?.qrcode) qrs.add(record.qrcode);
      return record?.status === 'DISCONNECTED' && qrs.size > 0 ? record : undefined;
    }, 'DISCONNECTED after the QR retries');
    // Assess
    expect(blocked.status).toBe(200);
    expect(qrs.size).toBeGreaterThanOrEqual(2);
    expect(ended.qrcode).toBe('');
    const lease = await eventually(async () => {
      const found = await getLease({ companyId: 11, connectionId: 2 });
      return found && !found.wanted ? found : undefined;
    }, 'the lease no longer wanted');
    expect(lease.owner).toBeUndefined();
    expect(host.manager.owns({ companyId: 11, connectionId: 2 })).toBe(false);
  });

  it('the page is served at /', async () => {
    const page = await fetch(`${simulator.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('WhatsApp simulator');
  });
});
