/**
 * A WhatsApp provider owns the live connection of one session. The session manager drives it and
 * turns what it reports into stored status, realtime events and inbound events. Two providers:
 * `baileys` (the real WhatsApp Web protocol) and `simulator` (a fake phone for local mode and tests).
 */
import type { ConnectionStatus, InboundEvent, PhoneContact, SessionCommand } from '@conversa/functions/contracts';

export type SendCommand = Extract<SessionCommand, { kind: 'send' }>;
export type DeleteCommand = Extract<SessionCommand, { kind: 'delete' }>;
export type EditCommand = Extract<SessionCommand, { kind: 'edit' }>;

/** Events without the tenant/connection fields, which the session manager adds. */
export type ProviderInbound = InboundEvent extends infer E
  ? E extends InboundEvent
    ? Omit<E, 'companyId' | 'connectionId'>
    : never
  : never;

export interface SessionCallbacks {
  /**
   * Connection state changed; `qrcode` is the QR payload while status is `qrcode`. A provider reports
   * `DISCONNECTED` only when the session has ended for good and will not reconnect on its own (logged
   * out on the phone, QR retries exhausted): the host then stops it and no longer wants it running.
   */
  onStatus(update: { status: ConnectionStatus; qrcode?: string; retries?: number; number?: string; reason?: string }): Promise<void> | void;
  /** A WhatsApp event for the inbound pipeline. Resolves once it is durably queued. */
  onInbound(event: ProviderInbound): Promise<void>;
}

export interface SendOptions {
  /**
   * The WhatsApp message id to send with, derived from our messageId (see wa-message-id.ts). A resend
   * after a crash between "sent" and "recorded" carries the same id, so WhatsApp (and the simulator)
   * see one message, not two. Baileys: `sendMessage(jid, content, { messageId })`.
   */
  waMessageId: string;
}

export interface SessionHandle {
  send(command: SendCommand, options: SendOptions): Promise<{ waMessageId: string; timestamp: number }>;
  deleteMessage(command: DeleteCommand): Promise<void>;
  editMessage(command: EditCommand): Promise<void>;
  /**
   * The phone's contacts: individuals only (no groups, broadcasts or unresolved @lid ids), digits of
   * the number and the best name known. Optional: a provider without it imports nothing.
   */
  listContacts?(): Promise<PhoneContact[]>;
  /**
   * Which of these numbers (digits) have a WhatsApp account: the ones that do, as given. Optional: a
   * provider without it leaves contact list numbers unchecked.
   */
  checkNumbers?(numbers: string[]): Promise<string[]>;
  /** Log out on WhatsApp and forget the credentials. */
  logout(): Promise<void>;
  /** Close the socket, keeping the credentials (shutdown, lease lost). */
  stop(): Promise<void>;
}

export interface SessionSpec {
  companyId: number;
  connectionId: number;
  /** Forget stored credentials first (New QR). */
  fresh?: boolean;
  /** Log in with a pairing code for this phone number instead of a QR. */
  pairingNumber?: string;
}

export interface WhatsAppProvider {
  readonly name: 'baileys' | 'simulator';
  start(spec: SessionSpec, callbacks: SessionCallbacks): Promise<SessionHandle>;
}
