/**
 * Baileys events as the inbound events of the pipeline (functions/src/contracts/session-events.ts).
 * Every function here maps; none sends: the session decides what to do with the result.
 */
import type { WaMessage } from '@conversa/functions/contracts/session-events';
import {
  type downloadMediaMessage,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  type MessageUpsertType,
  type MessageUserReceiptUpdate,
  proto,
  type WACallEvent,
  type WAMessage,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type { ProviderInbound } from '../../provider.ts';
import { describeContent } from './content.ts';
import type { LidResolver } from './jids.ts';
import type { ILogger } from './logger.ts';
import { type MediaStore, putMedia } from './media.ts';

export const ERR_DOWNLOAD_MEDIA = 'ERR_WAPP_DOWNLOAD_MEDIA';

export type DownloadMedia = typeof downloadMediaMessage;

export interface InboundContext {
  companyId: number;
  connectionId: number;
  resolver: LidResolver;
  media: MediaStore;
  download: DownloadMedia;
  /** Asks the phone to re-upload expired media (the socket's `updateMediaMessage`). */
  reupload?: (message: WAMessage) => Promise<WAMessage>;
  logger: ILogger;
  now: () => number;
}

type Long = { toNumber(): number };
const toMs = (seconds: number | Long | null | undefined): number | undefined =>
  seconds === null || seconds === undefined ? undefined : (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000;

/** Chats the inbox never shows: status updates, broadcast lists, channels. */
export function isIgnoredChat(jid: string | null | undefined): boolean {
  return !jid || isJidBroadcast(jid) || isJidNewsletter(jid) === true;
}

async function numberOf(ctx: InboundContext, jid: string, alt?: string | null): Promise<string> {
  const { number, resolved } = await ctx.resolver.number(jid, alt);
  if (!resolved) ctx.logger.warn({ jid }, 'lid without a known phone number: using its digits');
  return number;
}

/** One upserted message, or undefined when it is not a conversation message. */
export async function messageEvent(ctx: InboundContext, msg: WAMessage, type: MessageUpsertType): Promise<ProviderInbound | undefined> {
  const { key } = msg;
  const jid = key.remoteJid;
  if (!jid || !key.id || isIgnoredChat(jid)) return undefined;
  const content = describeContent(msg.message);
  if (!content) return undefined;

  const isGroup = isJidGroup(jid) === true;
  ctx.resolver.learn(jid, key.remoteJidAlt);
  ctx.resolver.learn(key.participant, key.participantAlt);
  const message: WaMessage = {
    id: key.id,
    fromMe: Boolean(key.fromMe),
    number: await numberOf(ctx, jid, key.remoteJidAlt),
    isGroup,
    timestamp: toMs(msg.messageTimestamp) ?? ctx.now(),
    body: content.body,
  };
  if (isGroup && key.participant && !key.fromMe) message.participantNumber = await numberOf(ctx, key.participant, key.participantAlt);
  if (msg.pushName && !key.fromMe) message.pushName = msg.pushName;
  if (content.mediaType) message.mediaType = content.mediaType;
  if (content.quotedId) message.quotedId = content.quotedId;
  if (content.location) message.location = content.location;
  if (type !== 'notify') message.history = true;

  if (content.file) {
    try {
      const bytes = await ctx.download(msg, 'buffer', {}, ctx.reupload ? { logger: ctx.logger, reuploadRequest: ctx.reupload } : undefined);
      message.media = await putMedia(
        ctx.media,
        { companyId: ctx.companyId, connectionId: ctx.connectionId, waMessageId: key.id },
        bytes,
        content.file,
      );
    } catch (error) {
      // The message is kept (the contact wrote something) with the failure in its body.
      ctx.logger.warn({ err: error, id: key.id }, 'media download failed');
      message.body = message.body ? `${message.body}\n${ERR_DOWNLOAD_MEDIA}` : ERR_DOWNLOAD_MEDIA;
    }
  }
  return { kind: 'message', message };
}

/**
 * SPEC 4 "Message ack" uses Baileys' own status numbers (1 sent, 2 server, 3 delivered, 4 read,
 * 5 played); ERROR (0) is not an ack and would move a message backwards.
 */
export function ackOf(status: number | null | undefined): number | undefined {
  if (status === null || status === undefined) return undefined;
  return status >= 1 && status <= 5 ? status : undefined;
}

export async function updateEvents(ctx: InboundContext, updates: WAMessageUpdate[]): Promise<ProviderInbound[]> {
  const events: ProviderInbound[] = [];
  for (const { key, update } of updates) {
    if (!key.id || !key.remoteJid || isIgnoredChat(key.remoteJid)) continue;
    const number = await numberOf(ctx, key.remoteJid, key.remoteJidAlt);
    const ack = ackOf(update.status);
    if (ack !== undefined) events.push({ kind: 'ack', waMessageId: key.id, number, ack });
    if (update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) {
      events.push({ kind: 'revoke', waMessageId: key.id, number });
    } else if (update.message?.editedMessage) {
      const content = describeContent(update.message);
      if (content) events.push({ kind: 'edit', waMessageId: key.id, number, body: content.body });
    }
  }
  return events;
}

/** Per-reader receipts (groups, and our own other devices): the furthest state reached. */
export async function receiptEvents(ctx: InboundContext, receipts: MessageUserReceiptUpdate[]): Promise<ProviderInbound[]> {
  const events: ProviderInbound[] = [];
  for (const { key, receipt } of receipts) {
    if (!key.id || !key.remoteJid || isIgnoredChat(key.remoteJid)) continue;
    const ack = receipt.playedTimestamp ? 5 : receipt.readTimestamp ? 4 : receipt.receiptTimestamp ? 3 : undefined;
    if (ack === undefined) continue;
    events.push({ kind: 'ack', waMessageId: key.id, number: await numberOf(ctx, key.remoteJid, key.remoteJidAlt), ack });
  }
  return events;
}

/** An incoming call offer; `rejected` says whether the session turned it down. */
export async function callEvent(ctx: InboundContext, call: WACallEvent, rejected: boolean): Promise<ProviderInbound> {
  return {
    kind: 'call',
    callId: call.id,
    number: await numberOf(ctx, call.from, call.callerPn),
    timestamp: call.date instanceof Date ? call.date.getTime() : ctx.now(),
    rejected,
  };
}
