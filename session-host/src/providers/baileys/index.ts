/**
 * The `baileys` provider: real WhatsApp Web sessions through @whiskeysockets/baileys. Loaded lazily
 * by the session manager (Baileys and its WASM bridge cost memory the simulator never needs).
 *
 * Everything that reaches outside the process is a dependency, so tests drive a fake socket with
 * Baileys-shaped events and a fake media download, against DynamoDB Local and s3rver.
 */

import { env } from '@conversa/functions/commons/env';
import { s3Client } from '@conversa/functions/commons/s3';
import { getSetting } from '@conversa/functions/storage/settings';
import { downloadMediaMessage, makeWASocket, type SocketConfig } from '@whiskeysockets/baileys';
import type { SessionCallbacks, SessionHandle, SessionSpec, WhatsAppProvider } from '../../provider.ts';
import { type ILogger, jsonLogger } from './logger.ts';
import type { MediaStore } from './media.ts';
import { BaileysSession, type SessionDeps } from './session.ts';

export interface BaileysProviderDeps {
  makeSocket?: typeof makeWASocket;
  now?: () => number;
  logger?: ILogger;
  /** Baileys' `downloadMediaMessage`, replaced in tests (no WhatsApp media servers). */
  downloadMedia?: SessionDeps['download'];
  media?: MediaStore;
  callSetting?: (companyId: number) => Promise<string>;
  reconnectDelayMs?: (attempt: number) => number;
  /** Unscanned QR codes (or pairing codes) shown before the session gives up. */
  maxQrCodes?: number;
  logoutOpenWaitMs?: number;
  socketConfig?: Partial<SocketConfig>;
  inboundBackoff?: SessionDeps['inboundBackoff'];
}

/** 2 s, 4 s, 8 s ... capped at 5 minutes, with up to 20 % jitter so hosts do not reconnect in step. */
export function backoffMs(attempt: number): number {
  const base = Math.min(2000 * 2 ** (attempt - 1), 300_000);
  return Math.round(base * (1 + Math.random() * 0.2));
}

export function createBaileysProvider(deps: BaileysProviderDeps = {}): WhatsAppProvider {
  const sessionDeps: SessionDeps = {
    makeSocket: deps.makeSocket ?? makeWASocket,
    now: deps.now ?? Date.now,
    logger: deps.logger ?? jsonLogger(),
    download: deps.downloadMedia ?? downloadMediaMessage,
    media: deps.media ?? { s3: s3Client, bucket: () => env.mediaBucket },
    callSetting: deps.callSetting ?? ((companyId) => getSetting(companyId, 'call')),
    reconnectDelayMs: deps.reconnectDelayMs ?? backoffMs,
    maxQrCodes: deps.maxQrCodes ?? 3,
    logoutOpenWaitMs: deps.logoutOpenWaitMs ?? 15_000,
    ...(deps.socketConfig ? { socketConfig: deps.socketConfig } : {}),
    ...(deps.inboundBackoff ? { inboundBackoff: deps.inboundBackoff } : {}),
  };
  return {
    name: 'baileys',
    async start(spec: SessionSpec, callbacks: SessionCallbacks): Promise<SessionHandle> {
      const session = new BaileysSession(spec, callbacks, sessionDeps);
      await session.start();
      return session;
    },
  };
}
