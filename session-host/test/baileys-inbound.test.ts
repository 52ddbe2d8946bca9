/**
 * Baileys provider, inbound side: Baileys-shaped events in, the pipeline's inbound events out;
 * media lands in s3rver before its message event leaves.
 */
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InboundNotQueuedError } from '../src/inbound-publisher.ts';
import type { ProviderInbound } from '../src/provider.ts';
import type { BaileysProviderDeps } from '../src/providers/baileys/index.ts';
import {
  fakeSocketFactory,
  provider,
  recorder,
  type Stores,
  s3Object,
  silentLogger,
  startStores,
  waMessage,
} from './fixtures/baileys/harness.ts';

let stores: Stores;
beforeAll(async () => {
  stores = await startStores();
}, 60_000);
afterAll(async () => {
  await stores?.stop();
});

const CONTACT = '5511944443333@s.whatsapp.net';
const LID = '987654321098765@lid';
let nextConnection = 200;

async function connected(deps: BaileysProviderDeps = {}, lidToPn: Record<string, string> = {}) {
  const fake = fakeSocketFactory(lidToPn);
  const rec = recorder();
  const spec = { companyId: 7, connectionId: nextConnection++ };
  const handle = await provider(stores, { makeSocket: fake.makeSocket, ...deps }).start(spec, rec.callbacks);
  const sock = fake.last();
  sock.open('5511900001111');
  await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
  const messages = () =>
    rec.inbound.filter((e): e is Extract<ProviderInbound, { kind: 'message' }> => e.kind === 'message').map((e) => e.message);
  return { sock, rec, spec, handle, messages };
}

describe('messages.upsert', () => {
  it('maps a text message of a contact (notify) with number, name, time and quote', async () => {
    const { sock, messages } = await connected();
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        waMessage({
          key: { remoteJid: CONTACT, fromMe: false, id: 'MSG-TEXT' },
          message: { extendedTextMessage: { text: 'Oi, tudo bem?', contextInfo: { stanzaId: 'MSG-QUOTED' } } },
        }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    expect(messages()[0]).toEqual({
      id: 'MSG-TEXT',
      fromMe: false,
      number: '5511944443333',
      isGroup: false,
      pushName: 'Ana',
      timestamp: 1_700_000_123_000,
      body: 'Oi, tudo bem?',
      quotedId: 'MSG-QUOTED',
    });
  });

  it('emits append/offline history with history: true, never drops it', async () => {
    const { sock, messages } = await connected();
    sock.ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        waMessage({ key: { remoteJid: CONTACT, fromMe: false, id: 'MSG-OFFLINE' }, message: { conversation: 'sent while you were away' } }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    expect(messages()[0]).toMatchObject({ id: 'MSG-OFFLINE', history: true, body: 'sent while you were away' });
  });

  it('emits a duplicate upsert again with the same WhatsApp id (the pipeline dedupes on it)', async () => {
    const { sock, messages } = await connected();
    const msg = waMessage({ key: { remoteJid: CONTACT, fromMe: false, id: 'MSG-DUP' }, message: { conversation: 'twice' } });
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await vi.waitFor(() => expect(messages()).toHaveLength(2));
    expect(messages().map((m) => m.id)).toEqual(['MSG-DUP', 'MSG-DUP']);
  });

  it('emits our own sends coming back as fromMe, so the pipeline recognises its echo', async () => {
    const { sock, messages } = await connected();
    sock.ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        waMessage({ key: { remoteJid: CONTACT, fromMe: true, id: '3EB0ABCDEF0123456789AB' }, message: { conversation: 'our reply' } }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    expect(messages()[0]).toMatchObject({ id: '3EB0ABCDEF0123456789AB', fromMe: true, number: '5511944443333' });
    expect(messages()[0]?.pushName).toBeUndefined();
  });

  it('resolves @lid senders to phone numbers: from remoteJidAlt, then from what it learned, then from the socket store', async () => {
    const { sock, messages } = await connected({}, { '111122223333444@lid': '5521977776666@s.whatsapp.net' });
    const text = (id: string, key: Partial<WAMessage['key']>) =>
      waMessage({ key: { fromMe: false, id, ...key }, message: { conversation: id } });
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [text('LID-ALT', { remoteJid: LID, remoteJidAlt: CONTACT })] });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [text('LID-LEARNED', { remoteJid: LID })] });
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [text('LID-STORE', { remoteJid: '111122223333444@lid' })] });
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        text('GROUP', {
          remoteJid: '120363040000000000@g.us',
          participant: '555566667777888@lid',
          participantAlt: '5531955554444@s.whatsapp.net',
        }),
      ],
    });
    sock.ev.emit('lid-mapping.update', { lid: '333344445555666@lid', pn: '5541933332222@s.whatsapp.net' });
    sock.ev.emit('contacts.upsert', [
      { id: '444455556666777@lid', lid: '444455556666777@lid', phoneNumber: '5551922221111@s.whatsapp.net' },
    ]);
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [text('LID-EVENT', { remoteJid: '333344445555666@lid' }), text('LID-CONTACT', { remoteJid: '444455556666777@lid' })],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(6));
    // Chats are handled independently, so only each message's own mapping is compared.
    expect(Object.fromEntries(messages().map((m) => [m.id, [m.number, m.isGroup, m.participantNumber]]))).toEqual({
      'LID-ALT': ['5511944443333', false, undefined],
      'LID-LEARNED': ['5511944443333', false, undefined],
      'LID-STORE': ['5521977776666', false, undefined],
      GROUP: ['120363040000000000', true, '5531955554444'],
      'LID-EVENT': ['5541933332222', false, undefined],
      'LID-CONTACT': ['5551922221111', false, undefined],
    });
    expect(sock.signalRepository.lidMapping.getPNForLID).toHaveBeenCalledTimes(1);
  });

  it('ignores status broadcasts, protocol messages and reactions', async () => {
    const { sock, rec, messages } = await connected();
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        waMessage({
          key: { remoteJid: 'status@broadcast', fromMe: false, id: 'S1', participant: CONTACT },
          message: { conversation: 'story' },
        }),
        waMessage({
          key: { remoteJid: CONTACT, fromMe: false, id: 'P1' },
          message: { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } } },
        }),
        waMessage({ key: { remoteJid: CONTACT, fromMe: false, id: 'R1' }, message: { reactionMessage: { text: '👍', key: { id: 'X' } } } }),
        waMessage({ key: { remoteJid: CONTACT, fromMe: false, id: 'LAST' }, message: { conversation: 'kept' } }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    expect(rec.inbound.map((e) => (e.kind === 'message' ? e.message.id : e.kind))).toEqual(['LAST']);
  });

  it('maps location, contact card, audio (ptt) and documents', async () => {
    const download = vi.fn(async () => Buffer.from('file-bytes'));
    const { sock, messages, spec } = await connected({ downloadMedia: download as unknown as BaileysProviderDeps['downloadMedia'] });
    const msg = (id: string, message: proto.IMessage) => waMessage({ key: { remoteJid: CONTACT, fromMe: false, id }, message });
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        msg('LOC', { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Loja Centro' } }),
        msg('VCARD', { contactMessage: { displayName: 'Bia', vcard: 'BEGIN:VCARD\nFN:Bia\nEND:VCARD' } }),
        msg('PTT', { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, url: 'https://mmg/x' } }),
        msg('DOC', { documentMessage: { mimetype: 'application/pdf', fileName: 'Orçamento.PDF', url: 'https://mmg/y' } }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(4));
    const [loc, vcard, ptt, doc] = messages();
    expect(loc).toMatchObject({
      mediaType: 'locationMessage',
      body: 'Loja Centro',
      location: { latitude: -23.5, longitude: -46.6, description: 'Loja Centro' },
    });
    expect(vcard).toMatchObject({ mediaType: 'vcard', body: 'BEGIN:VCARD\nFN:Bia\nEND:VCARD' });
    expect(ptt).toMatchObject({
      mediaType: 'audio',
      media: { key: `7/whatsapp/${spec.connectionId}/PTT.ogg`, mimetype: 'audio/ogg; codecs=opus' },
    });
    expect(doc).toMatchObject({
      mediaType: 'application',
      body: 'Orçamento.PDF',
      media: { key: `7/whatsapp/${spec.connectionId}/DOC.pdf`, filename: 'Orçamento.PDF', size: 10 },
    });
  });
});

describe('media', () => {
  it('downloads an image into the media bucket before emitting the message with its key', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
    const download = vi.fn(async () => jpeg);
    const { sock, messages, spec } = await connected({ downloadMedia: download as unknown as BaileysProviderDeps['downloadMedia'] });
    const image = waMessage({
      key: { remoteJid: CONTACT, fromMe: false, id: 'MSG-IMAGE' },
      message: { imageMessage: { mimetype: 'image/jpeg', caption: 'a foto', url: 'https://mmg.whatsapp.net/x', fileLength: 10 } },
    });
    sock.ev.emit('messages.upsert', { type: 'notify', messages: [image] });

    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    const key = `7/whatsapp/${spec.connectionId}/MSG-IMAGE.jpg`;
    expect(messages()[0]).toMatchObject({
      id: 'MSG-IMAGE',
      body: 'a foto',
      mediaType: 'image',
      media: { key, mimetype: 'image/jpeg', size: 10 },
    });
    expect(download).toHaveBeenCalledWith(image, 'buffer', {}, expect.objectContaining({ reuploadRequest: sock.updateMediaMessage }));
    const stored = await s3Object(stores, key);
    expect(stored.bytes).toEqual(jpeg);
    expect(stored.contentType).toBe('image/jpeg');
  });

  it('keeps a message whose download failed, noting ERR_WAPP_DOWNLOAD_MEDIA in its body', async () => {
    const download = vi.fn(async () => {
      throw new Error('media expired');
    });
    const { sock, messages } = await connected({ downloadMedia: download as unknown as BaileysProviderDeps['downloadMedia'] });
    sock.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        waMessage({
          key: { remoteJid: CONTACT, fromMe: false, id: 'MSG-LOST' },
          message: { videoMessage: { mimetype: 'video/mp4', caption: 'olha' } },
        }),
      ],
    });
    await vi.waitFor(() => expect(messages()).toHaveLength(1));
    expect(messages()[0]).toMatchObject({ id: 'MSG-LOST', mediaType: 'video', body: 'olha\nERR_WAPP_DOWNLOAD_MEDIA' });
    expect(messages()[0]?.media).toBeUndefined();
  });
});

describe('messages.update, receipts and calls', () => {
  it('maps status updates to acks, revokes and edits; receipts to acks', async () => {
    const { sock, rec } = await connected();
    sock.ev.emit('messages.update', [
      { key: { remoteJid: CONTACT, fromMe: true, id: 'OUT-1' }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
      { key: { remoteJid: CONTACT, fromMe: true, id: 'OUT-2' }, update: { status: proto.WebMessageInfo.Status.ERROR } },
      {
        key: { remoteJid: CONTACT, fromMe: false, id: 'IN-1' },
        update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE },
      },
      {
        key: { remoteJid: CONTACT, fromMe: false, id: 'IN-2' },
        update: { message: { editedMessage: { message: { conversation: 'corrigido' } } } },
      },
    ]);
    sock.ev.emit('message-receipt.update', [
      { key: { remoteJid: CONTACT, fromMe: true, id: 'OUT-1' }, receipt: { userJid: CONTACT, readTimestamp: 1_700_000_200 } },
    ]);
    await vi.waitFor(() => expect(rec.inbound).toHaveLength(4));
    expect(rec.inbound).toEqual([
      { kind: 'ack', waMessageId: 'OUT-1', number: '5511944443333', ack: 3 },
      { kind: 'revoke', waMessageId: 'IN-1', number: '5511944443333' },
      { kind: 'edit', waMessageId: 'IN-2', number: '5511944443333', body: 'corrigido' },
      { kind: 'ack', waMessageId: 'OUT-1', number: '5511944443333', ack: 4 },
    ]);
  });

  it('rejects calls when the company setting `call` is disabled, and reports each call either way', async () => {
    let setting = 'disabled';
    const { sock, rec } = await connected({ callSetting: async () => setting });
    const call = (id: string) => ({
      chatId: LID,
      from: LID,
      callerPn: CONTACT,
      id,
      date: new Date(1_700_000_300_000),
      status: 'offer' as const,
      offline: false,
    });
    sock.ev.emit('call', [call('CALL-1'), { ...call('CALL-1'), status: 'ringing' }]);
    await vi.waitFor(() => expect(rec.inbound).toHaveLength(1));
    setting = 'enabled';
    sock.ev.emit('call', [call('CALL-2')]);
    await vi.waitFor(() => expect(rec.inbound).toHaveLength(2));
    expect(rec.inbound).toEqual([
      { kind: 'call', callId: 'CALL-1', number: '5511944443333', timestamp: 1_700_000_300_000, rejected: true },
      { kind: 'call', callId: 'CALL-2', number: '5511944443333', timestamp: 1_700_000_300_000, rejected: false },
    ]);
    expect(sock.rejectCall).toHaveBeenCalledTimes(1);
    expect(sock.rejectCall).toHaveBeenCalledWith('CALL-1', LID);
  });
});

describe('handing events over', () => {
  /** A session whose host fails to take events as `onInbound` says; what it took is in `taken`. */
  async function flakyHost(onInbound: (event: ProviderInbound, attempt: number) => void) {
    const fake = fakeSocketFactory();
    const rec = recorder();
    const taken: ProviderInbound[] = [];
    const attempts = new Map<string, number>();
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (_obj: unknown, msg?: string) => errors.push(String(msg)), child: () => logger };
    const callbacks = {
      ...rec.callbacks,
      onInbound: async (event: ProviderInbound) => {
        const id = JSON.stringify(event);
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        onInbound(event, attempt);
        taken.push(event);
      },
    };
    const spec = { companyId: 7, connectionId: nextConnection++ };
    await provider(stores, { makeSocket: fake.makeSocket, logger, inboundBackoff: { firstMs: 5, maxMs: 20 } }).start(spec, callbacks);
    const sock = fake.last();
    sock.open('5511900001111');
    await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
    const upsert = (id: string, text: string) =>
      sock.ev.emit('messages.upsert', {
        type: 'notify',
        messages: [waMessage({ key: { remoteJid: CONTACT, fromMe: false, id }, message: { conversation: text } })],
      });
    const bodies = () => taken.flatMap((e) => (e.kind === 'message' ? [e.message.body] : []));
    return { upsert, bodies, attempts, errors };
  }

  it('retries with back-off until the host has queued the event: WhatsApp will not send it again', async () => {
    const host = await flakyHost((_event, attempt) => {
      // More failures than any fixed number of attempts the provider once had (5).
      if (attempt <= 7) throw new Error('queue unreachable');
    });
    host.upsert('MSG-RETRY', 'Oi 😀');
    host.upsert('MSG-AFTER', 'depois');
    await vi.waitFor(() => expect(host.bodies()).toEqual(['Oi 😀', 'depois']));
    expect([...host.attempts.values()]).toEqual([8, 8]);
    expect(host.errors).toEqual([]);
  });

  it('skips an event the queue refused, with an error log, and the chat goes on', async () => {
    const host = await flakyHost((event) => {
      if (event.kind === 'message' && event.message.body === 'refused')
        throw new InboundNotQueuedError('refused', 'x', new Error('too big'));
    });
    host.upsert('MSG-REFUSED', 'refused');
    host.upsert('MSG-NEXT', 'next');
    await vi.waitFor(() => expect(host.bodies()).toEqual(['next']));
    expect(host.errors).toEqual(['inbound event refused by the queue: skipped']);
  });
});
