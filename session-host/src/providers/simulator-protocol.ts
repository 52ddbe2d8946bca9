/**
 * The wire between the simulator (a fake WhatsApp network, a stand-in of the local stack:
 * infra/local/whatsapp-simulator) and the `simulator` provider (the linked-device side of one
 * connection, in the session-host). JSON over a WebSocket at `<SIMULATOR_URL>/phone`, one socket per
 * session. It lives with the provider so the stand-in imports the product's side of the wire, never
 * the other way round: the session-host image carries nothing of the local stack.
 */

export interface SimMedia {
  mimetype: string;
  filename?: string;
  /** File content, base64. */
  base64: string;
}

export interface SimLocation {
  latitude: number;
  longitude: number;
  description?: string;
}

/** A contact the simulated phone knows. */
export interface SimPhoneContact {
  number: string;
  name?: string;
}

/** What a simulated contact did, as the network tells the linked device. */
export type SimEvent =
  | {
      kind: 'message';
      id: string;
      number: string;
      pushName?: string;
      timestamp: number;
      body: string;
      media?: SimMedia;
      location?: SimLocation;
      quotedId?: string;
      /** Buffered while the device was offline, delivered on reconnect. */
      history?: boolean;
    }
  | { kind: 'ack'; waMessageId: string; number: string; ack: number };

export type DeviceToNetwork =
  | { type: 'hello'; companyId: number; connectionId: number; fresh?: boolean }
  | {
      type: 'send';
      reqId: number;
      waMessageId: string;
      to: string;
      body: string;
      media?: SimMedia & { asVoice?: boolean };
      quotedId?: string;
    }
  | { type: 'delete'; reqId: number; waMessageId: string; to: string }
  | { type: 'edit'; reqId: number; waMessageId: string; to: string; body: string }
  | { type: 'logout'; reqId: number }
  /** The phone's contacts: its address book and everyone it chatted with. */
  | { type: 'listContacts'; reqId: number }
  /** Which of these numbers have an account on the network (Baileys' onWhatsApp): `registered` answers. */
  | { type: 'onWhatsApp'; reqId: number; numbers: string[] }
  /** The event with this sequence number is durably handled; the network forgets it. */
  | { type: 'eventAck'; seq: number };

export type NetworkToDevice =
  | { type: 'qr'; code: string; retries: number }
  | { type: 'connected'; number: string }
  | { type: 'disconnected'; reason: 'qr-timeout' | 'logged-out' | 'replaced' }
  | { type: 'event'; seq: number; event: SimEvent }
  | {
      type: 'result';
      reqId: number;
      ok: true;
      waMessageId?: string;
      timestamp?: number;
      contacts?: SimPhoneContact[];
      registered?: string[];
    }
  | { type: 'result'; reqId: number; ok: false; error: string };

/** `<companyId>.<connectionId>`: connection ids are per tenant, so the pair names a session. */
export const simSessionKey = (companyId: number, connectionId: number): string => `${companyId}.${connectionId}`;
