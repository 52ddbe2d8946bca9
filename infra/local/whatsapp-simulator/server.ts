/**
 * The simulator's HTTP + WebSocket server: devices (the `simulator` provider) link at /phone, tests
 * drive simulated contacts through /api, and a person chats as a contact on the page at /.
 *
 *   GET  /api/connections                                         phone sessions and their state
 *   POST /api/connections/{id}/scan                                scan the QR now
 *   POST /api/connections/{id}/block-scan        {blocked?}        stop auto-scanning (QR retries run out)
 *   POST /api/connections/{id}/auto-ack          {delayMs|null}    ack our messages delivered, then read
 *   GET  /api/connections/{id}/qr.png                              the QR on screen, as an image
 *   POST /api/connections/{id}/contacts/{number}/messages          {body?, media?, location?, quotedId?, pushName?}
 *   GET  /api/connections/{id}/contacts/{number}/messages          the chat, each entry `from: us | contact`
 *   POST /api/connections/{id}/contacts/{number}/messages/{waMessageId}/ack   {ack: 2|3|4}
 *   GET  /api/connections/{id}/address-book                       the phone's contacts (saved + chats)
 *   POST /api/connections/{id}/address-book        {contacts: [{number, name?}]}   save contacts on the phone
 * `{id}` is `<companyId>.<connectionId>`, or the bare connection id when one company has it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { WebSocketServer } from 'ws';
import { LookupError, type NetworkOptions, SimNetwork } from './network.ts';
import { simulatorPage } from './page.ts';

export interface SimulatorOptions extends Partial<NetworkOptions> {
  port?: number;
  host?: string;
}

export interface Simulator {
  url: string;
  network: SimNetwork;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const network = new SimNetwork({
    scanMs: opts.scanMs ?? Number(process.env.SIMULATOR_SCAN_MS ?? 3000),
    qrRefreshMs: opts.qrRefreshMs ?? Number(process.env.SIMULATOR_QR_REFRESH_MS ?? 20_000),
    autoAckMs: opts.autoAckMs,
  });
  const server = createServer((req, res) => {
    handle(network, req, res).catch((error: unknown) => {
      if (error instanceof LookupError) return json(res, error.status, { error: error.message });
      if (error instanceof SyntaxError) return json(res, 400, { error: 'invalid JSON body' });
      json(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  const wss = new WebSocketServer({ server, path: '/phone' });
  wss.on('connection', (socket) => network.attach(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    network,
    async close() {
      network.close();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(network: SimNetwork, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const method = req.method ?? 'GET';
  if (method === 'GET' && parts.length === 0) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(simulatorPage);
    return;
  }
  if (parts[0] !== 'api' || parts[1] !== 'connections') return json(res, 404, { error: 'not found' });
  const [, , id, sub, number, messages, waMessageId, ack] = parts;
  if (!id) {
    if (method === 'GET') return json(res, 200, { connections: network.list() });
    return json(res, 405, { error: 'method not allowed' });
  }
  if (method === 'POST' && sub === 'scan' && parts.length === 4) {
    network.scanNow(id);
    return json(res, 200, { ok: true });
  }
  if (method === 'POST' && sub === 'block-scan' && parts.length === 4) {
    const body = await readJson(req);
    network.blockScan(id, body.blocked !== false);
    return json(res, 200, { ok: true });
  }
  if (method === 'POST' && sub === 'auto-ack' && parts.length === 4) {
    const body = await readJson(req);
    const delay = body.delayMs;
    network.setAutoAck(id, typeof delay === 'number' && delay >= 0 ? delay : undefined);
    return json(res, 200, { ok: true });
  }
  if (sub === 'address-book' && parts.length === 4) {
    if (method === 'GET') return json(res, 200, { contacts: network.contactsOf(id) });
    if (method === 'POST') {
      const body = await readJson(req);
      const list = Array.isArray(body.contacts) ? (body.contacts as Record<string, unknown>[]) : undefined;
      const valid = list?.every(
        (c) => typeof c?.number === 'string' && /^\d+$/.test(c.number) && (c.name === undefined || typeof c.name === 'string'),
      );
      if (!list || !valid) return json(res, 400, { error: 'contacts: [{number (digits), name?}]' });
      network.saveContacts(
        id,
        list.map((c) => ({ number: String(c.number), name: typeof c.name === 'string' ? c.name : undefined })),
      );
      return json(res, 200, { contacts: network.contactsOf(id) });
    }
  }
  if (method === 'GET' && sub === 'qr.png' && parts.length === 4) {
    const code = network.qrCode(id);
    if (!code) return json(res, 404, { error: 'no QR on screen' });
    const png = await QRCode.toBuffer(code, { width: 280, margin: 1 });
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png);
    return;
  }
  if (sub === 'contacts' && number && messages === 'messages') {
    if (!/^[\d-]+$/.test(number)) return json(res, 400, { error: 'number: digits only' });
    if (method === 'GET' && parts.length === 6) return json(res, 200, { messages: network.chat(id, number) });
    if (method === 'POST' && parts.length === 6) {
      const body = await readJson(req);
      const input = contactMessageInput(body);
      if (typeof input === 'string') return json(res, 400, { error: input });
      const entry = network.contactSends(id, number, input);
      return json(res, 201, { waMessageId: entry.waMessageId, timestamp: entry.timestamp });
    }
    if (method === 'POST' && waMessageId && ack === 'ack' && parts.length === 8) {
      const body = await readJson(req);
      const value = Number(body.ack);
      if (![2, 3, 4].includes(value)) return json(res, 400, { error: 'ack: 2, 3 or 4' });
      network.ack(id, waMessageId, value);
      return json(res, 200, { ok: true });
    }
  }
  json(res, 404, { error: 'not found' });
}

function contactMessageInput(body: Record<string, unknown>): Parameters<SimNetwork['contactSends']>[2] | string {
  const out: Parameters<SimNetwork['contactSends']>[2] = {};
  if (body.body !== undefined) {
    if (typeof body.body !== 'string') return 'body: a string';
    out.body = body.body;
  }
  if (typeof body.pushName === 'string') out.pushName = body.pushName;
  if (typeof body.quotedId === 'string') out.quotedId = body.quotedId;
  if (body.media !== undefined) {
    const media = body.media as Record<string, unknown>;
    if (typeof media?.mimetype !== 'string' || typeof media.base64 !== 'string') return 'media: {mimetype, filename?, base64}';
    out.media = {
      mimetype: media.mimetype,
      base64: media.base64,
      filename: typeof media.filename === 'string' ? media.filename : undefined,
    };
  }
  if (body.location !== undefined) {
    const location = body.location as Record<string, unknown>;
    const latitude = Number(location?.latitude);
    const longitude = Number(location?.longitude);
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return 'location: {latitude, longitude, description?}';
    out.location = { latitude, longitude, description: typeof location.description === 'string' ? location.description : undefined };
  }
  if (out.body === undefined && !out.media && !out.location) return 'one of body, media, location is required';
  return out;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new LookupError(413, 'body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  const value = JSON.parse(text) as unknown;
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
