/**
 * The `simulator` provider: the linked-device side of one connection on the simulated network (the
 * local stack's stand-in, infra/local/whatsapp-simulator, reached at SIMULATOR_URL). It behaves like a
 * WhatsApp Web session as the host sees it: a QR, then CONNECTED; contacts' messages (media uploaded to the media bucket first) and acks arrive as
 * inbound events, each acknowledged to the network only after the host has queued it durably, so a
 * host killed mid-stream gets them again from the network on its next connect.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { env } from '@conversa/functions/commons/env';
import { s3Client } from '@conversa/functions/commons/s3';
import type { MediaType } from '@conversa/functions/contracts/session-events';
import WebSocket from 'ws';
import { inboundMediaKey } from '../media.ts';
import type { ProviderInbound, SessionCallbacks, SessionHandle, SessionSpec, WhatsAppProvider } from '../provider.ts';
import { PermanentSendError } from '../send-executor.ts';
import type { DeviceToNetwork, NetworkToDevice, SimEvent } from './simulator-protocol.ts';

export interface MediaStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
}

export const s3MediaStore: MediaStore = {
  async put(key, body, contentType) {
    await s3Client().send(new PutObjectCommand({ Bucket: env.mediaBucket, Key: key, Body: body, ContentType: contentType }));
  },
  async get(key) {
    const out = await s3Client().send(new GetObjectCommand({ Bucket: env.mediaBucket, Key: key }));
    if (!out.Body) throw new PermanentSendError('ERR_WAPP_DOWNLOAD_MEDIA', `media ${key} is empty`);
    return Buffer.from(await out.Body.transformToByteArray());
  },
};

const REQUEST_TIMEOUT_MS = 15_000;
const RECONNECT_MS = 1000;

type Pending = { resolve: (value: Extract<NetworkToDevice, { type: 'result' }>) => void; reject: (error: Error) => void };
type OutgoingRequest = DeviceToNetwork extends infer M ? (M extends { reqId: number } ? Omit<M, 'reqId'> : never) : never;

export function createSimulatorProvider(opts: { url: string; media?: MediaStore }): WhatsAppProvider {
  const media = opts.media ?? s3MediaStore;
  const phoneUrl = `${opts.url.replace(/^http/, 'ws').replace(/\/$/, '')}/phone`;
  return {
    name: 'simulator',
    start: (spec, callbacks) => startDevice(phoneUrl, media, spec, callbacks),
  };
}

async function startDevice(phoneUrl: string, media: MediaStore, spec: SessionSpec, callbacks: SessionCallbacks): Promise<SessionHandle> {
  let socket: WebSocket | undefined;
  let stopped = false;
  let nextReq = 1;
  let fresh = spec.fresh;
  const pending = new Map<number, Pending>();
  /** Per-contact chains: a contact's events reach the host in the order the network sent them. */
  const chains = new Map<string, Promise<void>>();

  const failPending = (reason: string) => {
    for (const request of pending.values()) request.reject(new Error(reason));
    pending.clear();
  };

  function connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(phoneUrl);
      socket = ws;
      ws.once('open', () => {
        ws.send(
          JSON.stringify({ type: 'hello', companyId: spec.companyId, connectionId: spec.connectionId, fresh } satisfies DeviceToNetwork),
        );
        fresh = false; // a reconnect resumes the pairing made after this start
        resolve();
      });
      ws.on('error', (error) => reject(error)); // after open, 'close' follows and handles it
      ws.on('message', (raw) => onMessage(ws, JSON.parse(String(raw)) as NetworkToDevice));
      ws.on('close', () => {
        failPending('simulator connection closed');
        if (stopped || socket !== ws) return;
        // The network went away (simulator restarted): keep trying, as WhatsApp Web does.
        void Promise.resolve(callbacks.onStatus({ status: 'OPENING' })).catch(() => undefined);
        setTimeout(() => {
          if (!stopped && socket === ws) connect().catch(() => undefined); // its own 'close' retries again
        }, RECONNECT_MS);
      });
    });
  }

  function onMessage(ws: WebSocket, message: NetworkToDevice): void {
    switch (message.type) {
      case 'qr':
        void callbacks.onStatus({ status: 'qrcode', qrcode: message.code, retries: message.retries });
        return;
      case 'connected':
        void callbacks.onStatus({ status: 'CONNECTED', number: message.number, qrcode: '', retries: 0 });
        return;
      case 'disconnected':
        if (message.reason === 'replaced') {
          // Another device took the session (a newer owner): go quiet; the lease says who runs it.
          stopped = true;
          ws.close();
          return;
        }
        stopped = true;
        ws.close();
        void callbacks.onStatus({ status: 'DISCONNECTED', qrcode: '', reason: message.reason });
        return;
      case 'result': {
        const request = pending.get(message.reqId);
        pending.delete(message.reqId);
        request?.resolve(message);
        return;
      }
      case 'event': {
        const contact = message.event.number;
        const previous = chains.get(contact) ?? Promise.resolve();
        const next = previous.then(async () => {
          try {
            await callbacks.onInbound(await toInbound(message.event, spec, media));
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'eventAck', seq: message.seq } satisfies DeviceToNetwork));
          } catch {
            // Not acknowledged: the network delivers it again on the next connect.
          }
        });
        chains.set(contact, next);
        void next.then(() => {
          if (chains.get(contact) === next) chains.delete(contact);
        });
        return;
      }
    }
  }

  function request(body: OutgoingRequest): Promise<Extract<NetworkToDevice, { type: 'result' }>> {
    const ws = socket;
    if (!ws || ws.readyState !== ws.OPEN) return Promise.reject(new Error('simulator not connected'));
    const reqId = nextReq++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(reqId);
        reject(new Error(`simulator did not answer ${body.type} in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      pending.set(reqId, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      ws.send(JSON.stringify({ ...body, reqId }));
    });
  }

  async function mustSucceed(
    body: OutgoingRequest,
  ): Promise<{ waMessageId?: string; timestamp?: number; contacts?: { number: string; name?: string }[]; registered?: string[] }> {
    const result = await request(body);
    if (result.ok) return result;
    // Not connected (yet) is worth retrying; anything else the network refused is final.
    if (result.error === 'ERR_WAPP_NOT_INITIALIZED') throw new Error(result.error);
    throw new PermanentSendError(result.error);
  }

  async function close(): Promise<void> {
    stopped = true;
    failPending('session stopped');
    const ws = socket;
    if (!ws || ws.readyState === ws.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
      setTimeout(resolve, 1000).unref();
    });
  }

  try {
    await connect();
  } catch (error) {
    stopped = true;
    throw new Error(`simulator unreachable at ${phoneUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    async send(command, options) {
      const file = command.media
        ? {
            mimetype: command.media.mimetype,
            filename: command.media.filename,
            asVoice: command.media.asVoice,
            base64: (await media.get(command.media.key)).toString('base64'),
          }
        : undefined;
      const result = await mustSucceed({
        type: 'send',
        waMessageId: options.waMessageId,
        to: command.isGroup ? `${command.number}@g.us` : command.number,
        body: command.body,
        media: file,
        quotedId: command.quotedWaId,
      });
      return { waMessageId: result.waMessageId ?? options.waMessageId, timestamp: result.timestamp ?? Date.now() };
    },
    async deleteMessage(command) {
      await mustSucceed({ type: 'delete', waMessageId: command.waMessageId, to: command.number });
    },
    async editMessage(command) {
      await mustSucceed({ type: 'edit', waMessageId: command.waMessageId, to: command.number, body: command.body });
    },
    async listContacts() {
      const result = await mustSucceed({ type: 'listContacts' });
      return result.contacts ?? [];
    },
    async checkNumbers(numbers) {
      const result = await mustSucceed({ type: 'onWhatsApp', numbers });
      return result.registered ?? [];
    },
    async logout() {
      await mustSucceed({ type: 'logout' }).catch(() => undefined);
      await close();
    },
    stop: close,
  };
}

export function mediaTypeOf(mimetype: string): MediaType {
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'application';
}

async function toInbound(event: SimEvent, spec: SessionSpec, media: MediaStore): Promise<ProviderInbound> {
  if (event.kind === 'ack') return { kind: 'ack', waMessageId: event.waMessageId, number: event.number, ack: event.ack };
  let stored: { key: string; mimetype: string; filename?: string; size: number } | undefined;
  if (event.media) {
    const body = Buffer.from(event.media.base64, 'base64');
    const key = inboundMediaKey({ ...spec, waMessageId: event.id, mimetype: event.media.mimetype, filename: event.media.filename });
    await media.put(key, body, event.media.mimetype);
    stored = { key, mimetype: event.media.mimetype, filename: event.media.filename, size: body.length };
  }
  return {
    kind: 'message',
    message: {
      id: event.id,
      fromMe: false,
      number: event.number,
      isGroup: false,
      pushName: event.pushName,
      timestamp: event.timestamp,
      body: event.body,
      mediaType: stored ? mediaTypeOf(stored.mimetype) : event.location ? 'locationMessage' : undefined,
      media: stored,
      quotedId: event.quotedId,
      location: event.location,
      history: event.history,
    },
  };
}
