/**
 * Media between WhatsApp and the media bucket. Inbound files are in the bucket before the message
 * event leaves the host, so the pipeline only ever handles a key; outbound files are read from the
 * bucket by the key the send command carries.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { InboundMedia } from '@conversa/functions/contracts/session-events';
import { inboundMediaKey } from '../../media.ts';

export interface MediaStore {
  s3: () => S3Client;
  bucket: () => string;
}

export async function putMedia(
  store: MediaStore,
  target: { companyId: number; connectionId: number; waMessageId: string },
  bytes: Uint8Array,
  file: { mimetype: string; filename?: string },
): Promise<InboundMedia> {
  // One object per message (the host's shared key scheme): a replayed message overwrites its own file.
  const key = inboundMediaKey({ ...target, ...file });
  await store.s3().send(
    new PutObjectCommand({
      Bucket: store.bucket(),
      Key: key,
      Body: bytes,
      ContentType: file.mimetype,
      ...(file.filename ? { ContentDisposition: `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}` } : {}),
    }),
  );
  return { key, mimetype: file.mimetype, ...(file.filename ? { filename: file.filename } : {}), size: bytes.byteLength };
}

export async function getMedia(store: MediaStore, key: string): Promise<Buffer> {
  const out = await store.s3().send(new GetObjectCommand({ Bucket: store.bucket(), Key: key }));
  if (!out.Body) throw new Error(`ERR_WAPP_MEDIA_NOT_FOUND: ${key}`);
  return Buffer.from(await out.Body.transformToByteArray());
}
