/**
 * Baileys provider, outbound side: session commands as sendMessage calls, media read from s3rver,
 * WhatsApp ids derived from our message ids.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { waMessageIdFor } from '@conversa/functions/contracts/wa-message-id';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SendCommand } from '../src/provider.ts';
import { fakeSocketFactory, provider, recorder, type Stores, startStores } from './fixtures/baileys/harness.ts';

let stores: Stores;
beforeAll(async () => {
  stores = await startStores();
}, 60_000);
afterAll(async () => {
  await stores?.stop();
});

let nextConnection = 300;
const JID = '5511944443333@s.whatsapp.net';

async function connected() {
  const fake = fakeSocketFactory();
  const rec = recorder();
  const spec = { companyId: 7, connectionId: nextConnection++ };
  const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(spec, rec.callbacks);
  const sock = fake.last();
  sock.open('5511900001111');
  await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
  const command = (partial: Partial<SendCommand>): SendCommand => ({
    kind: 'send',
    companyId: spec.companyId,
    connectionId: spec.connectionId,
    commandId: `cmd-${partial.messageId ?? 'm'}`,
    messageId: 'msg-1',
    ticketId: 1,
    number: '5511944443333',
    isGroup: false,
    body: '',
    ...partial,
  });
  /** As the host sends: with the WhatsApp id derived from our message id. */
  const send = (partial: Partial<SendCommand>) => {
    const cmd = command(partial);
    return handle.send(cmd, { waMessageId: waMessageIdFor(cmd.companyId, cmd.connectionId, cmd.messageId) });
  };
  return { sock, handle, spec, command, send };
}

async function putObject(key: string, bytes: Buffer, contentType: string) {
  await stores.s3Client.send(new PutObjectCommand({ Bucket: stores.bucket, Key: key, Body: bytes, ContentType: contentType }));
}

describe('send', () => {
  it('sends text with a WhatsApp id derived from our message id, the same on a resend', async () => {
    const { sock, spec, send } = await connected();
    const first = await send({ messageId: 'msg-abc', body: 'Olá!' });
    const again = await send({ messageId: 'msg-abc', body: 'Olá!' });
    const other = await send({ messageId: 'msg-xyz', body: 'Outra' });

    expect(first.waMessageId).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(first.waMessageId).toBe(waMessageIdFor(spec.companyId, spec.connectionId, 'msg-abc'));
    expect(again.waMessageId).toBe(first.waMessageId);
    expect(other.waMessageId).not.toBe(first.waMessageId);
    expect(first.timestamp).toBe(1_700_000_000_000);
    expect(sock.sendMessage).toHaveBeenNthCalledWith(1, JID, { text: 'Olá!' }, { messageId: first.waMessageId });
  });

  it('quotes the replied message by its WhatsApp id, and addresses groups by their id', async () => {
    const { sock, send } = await connected();
    await send({ body: 'respondendo', quotedWaId: 'IN-9', quotedFromMe: false });
    await send({ messageId: 'msg-g', number: '120363040000000000', isGroup: true, body: 'para o grupo' });
    const [, , options] = sock.sendMessage.mock.calls[0]!;
    expect(options).toMatchObject({ quoted: { key: { remoteJid: JID, id: 'IN-9', fromMe: false } } });
    expect(sock.sendMessage.mock.calls[1]![0]).toBe('120363040000000000@g.us');
  });

  it('sends image, voice note and document media read from the bucket', async () => {
    const { sock, send } = await connected();
    const png = Buffer.from('png-bytes');
    const ogg = Buffer.from('ogg-bytes');
    const pdf = Buffer.from('%PDF-1.4');
    await putObject('7/out/a.png', png, 'image/png');
    await putObject('7/out/b.ogg', ogg, 'audio/ogg');
    await putObject('7/out/c.pdf', pdf, 'application/pdf');

    await send({ messageId: 'm-img', body: 'legenda', media: { key: '7/out/a.png', mimetype: 'image/png' } });
    await send({ messageId: 'm-ptt', media: { key: '7/out/b.ogg', mimetype: 'audio/ogg', asVoice: true } });
    await send({ messageId: 'm-doc', media: { key: '7/out/c.pdf', mimetype: 'application/pdf', filename: 'proposta.pdf' } });

    const contents = sock.sendMessage.mock.calls.map((call) => call[1]);
    expect(contents).toEqual([
      { image: png, mimetype: 'image/png', caption: 'legenda' },
      { audio: ogg, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      { document: pdf, mimetype: 'application/pdf', fileName: 'proposta.pdf', caption: undefined },
    ]);
  });

  it('deletes and edits by WhatsApp id', async () => {
    const { sock, handle, spec } = await connected();
    const base = { companyId: spec.companyId, connectionId: spec.connectionId, commandId: 'c', number: '5511944443333', isGroup: false };
    await handle.deleteMessage({ ...base, kind: 'delete', waMessageId: '3EB0AAA', fromMe: true });
    await handle.editMessage({ ...base, kind: 'edit', waMessageId: '3EB0BBB', body: 'novo texto' });
    expect(sock.sendMessage.mock.calls).toEqual([
      [JID, { delete: { remoteJid: JID, fromMe: true, id: '3EB0AAA' } }],
      [JID, { text: 'novo texto', edit: { remoteJid: JID, fromMe: true, id: '3EB0BBB' } }],
    ]);
  });

  it('refuses to send while the session is not connected, so the command is retried or failed, not lost', async () => {
    const { sock, handle, send } = await connected();
    sock.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: Object.assign(new Error('lost'), { output: { statusCode: 428 } }), date: new Date() },
    });
    await expect(send({ body: 'x' })).rejects.toThrow('ERR_WAPP_NOT_INITIALIZED');
    expect(sock.sendMessage).not.toHaveBeenCalled();
    await handle.stop();
  });
});
