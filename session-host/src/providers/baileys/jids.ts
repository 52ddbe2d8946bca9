/**
 * WhatsApp addresses to the numbers the rest of the product keys contacts by.
 *
 * Since 2025 WhatsApp addresses many senders by a device-independent `@lid` id instead of their phone
 * number. Storing that id as the contact number duplicated contacts in peer products (BEHAVIOUR
 * "Inbound WhatsApp messages"), so every `@lid` is resolved to the phone number before an event
 * leaves the provider: from the `*Alt` fields of the message key when WhatsApp sends them, from
 * pairs learned earlier (events, history, contacts), then from the socket's own LID store.
 */
import { isJidGroup, isLidUser, isPnUser, jidDecode } from '@whiskeysockets/baileys';

/** The socket's mapping store; only the lookup is needed. */
export interface LidLookup {
  getPNForLID(lid: string): Promise<string | null>;
}

const digits = (value: string): string => value.replace(/\D/g, '');

/** User part of a JID without device/agent (`5511999:12@s.whatsapp.net` -> `5511999`). */
export function jidUser(jid: string): string {
  return jidDecode(jid)?.user ?? jid.split('@')[0]!.split(':')[0]!;
}

/** Phone-number JID for a number or a group id (`isGroup`). */
export function toJid(number: string, isGroup: boolean): string {
  if (number.includes('@')) return number;
  return isGroup ? `${number}@g.us` : `${digits(number)}@s.whatsapp.net`;
}

/**
 * Remembers LID -> phone pairs in a bounded map (the socket's store is the durable one, in the
 * auth state; this saves a lookup per message for recent senders).
 */
export class LidResolver {
  private readonly pairs = new Map<string, string>();

  constructor(
    private readonly lookup: () => LidLookup | undefined,
    private readonly limit = 5000,
  ) {}

  /** Learns a pair when one side is a LID and the other a phone number, in either order. */
  learn(a: string | null | undefined, b: string | null | undefined): void {
    if (!a || !b) return;
    const [lid, pn] = isLidUser(a) && isPnUser(b) ? [a, b] : isLidUser(b) && isPnUser(a) ? [b, a] : [];
    if (!lid || !pn) return;
    const key = jidUser(lid);
    this.pairs.delete(key);
    this.pairs.set(key, jidUser(pn));
    if (this.pairs.size > this.limit) this.pairs.delete(this.pairs.keys().next().value!);
  }

  /**
   * Digits of the phone number behind `jid`; `alt` is the key's `remoteJidAlt`/`participantAlt`.
   * A LID that nothing can resolve falls back to its own digits (logged by the caller) rather than
   * dropping the message.
   */
  async number(jid: string, alt?: string | null): Promise<{ number: string; resolved: boolean }> {
    if (isJidGroup(jid)) return { number: jidUser(jid), resolved: true };
    if (!isLidUser(jid)) return { number: digits(jidUser(jid)), resolved: true };
    if (alt && isPnUser(alt)) {
      this.learn(jid, alt);
      return { number: digits(jidUser(alt)), resolved: true };
    }
    const known = this.pairs.get(jidUser(jid));
    if (known) return { number: digits(known), resolved: true };
    const pn = await this.lookup()
      ?.getPNForLID(jid)
      .catch(() => null);
    if (pn) {
      this.learn(jid, pn);
      return { number: digits(jidUser(pn)), resolved: true };
    }
    return { number: digits(jidUser(jid)), resolved: false };
  }
}
