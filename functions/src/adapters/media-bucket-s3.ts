/**
 * The media bucket's S3 calls, behind media-bucket.ts, which imports this module on first use: the
 * S3 client and the presigner are ~100 KB minified that most requests of the Lambdas bundling them
 * never run (a chunk of their own, infra/lib/bundling.ts). Import media-bucket.ts (the port's implementation), not this.
 */
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { env } from '#commons/env';
import { s3Client } from '#commons/s3';
import type { ServedAs } from '#domain/media/bucket';

export async function putMedia(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3Client().send(new PutObjectCommand({ Bucket: env.mediaBucket, Key: key, Body: body, ContentType: contentType }));
}

/** A copy of `from` at `to` (content type kept), inside the bucket: no bytes pass through the Lambda. */
export async function copyMedia(from: string, to: string): Promise<void> {
  const source = `${env.mediaBucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
  await s3Client().send(new CopyObjectCommand({ Bucket: env.mediaBucket, Key: to, CopySource: source, MetadataDirective: 'COPY' }));
}

/** The object's content type and size, or undefined when there is no such object. */
export async function headMedia(key: string): Promise<{ contentType: string; size: number } | undefined> {
  try {
    const out = await s3Client().send(new HeadObjectCommand({ Bucket: env.mediaBucket, Key: key }));
    return { contentType: out.ContentType ?? 'application/octet-stream', size: out.ContentLength ?? 0 };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || (error as { name?: string }).name === 'NotFound') return undefined;
    throw error;
  }
}

/** The object's bytes (a contact's voice note to transcribe: a few hundred KB at most). */
export async function getMedia(key: string): Promise<Uint8Array> {
  const out = await s3Client().send(new GetObjectCommand({ Bucket: env.mediaBucket, Key: key }));
  if (!out.Body) throw new Error(`media ${key} has no body`);
  return out.Body.transformToByteArray();
}

export function presignedGet(key: string, servedAs: ServedAs, expiresIn: number): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: env.mediaBucket,
    Key: key,
    ResponseContentType: servedAs.contentType,
    ResponseContentDisposition: servedAs.contentDisposition,
  });
  return getSignedUrl(s3Client(), command, { expiresIn });
}

export function presignedPut(key: string, contentType: string, size: number, expiresIn: number): Promise<string> {
  return getSignedUrl(
    s3Client(),
    new PutObjectCommand({ Bucket: env.mediaBucket, Key: key, ContentType: contentType, ContentLength: size }),
    { expiresIn, signableHeaders: new Set(['content-type', 'content-length']) },
  );
}

/** Removes an object no record names any more (a replaced or removed attachment); '' is nothing. */
export async function deleteMedia(key: string): Promise<void> {
  if (!key) return;
  await s3Client().send(new DeleteObjectCommand({ Bucket: env.mediaBucket, Key: key }));
}

/** Deletes `keys` (at most 1000, S3's DeleteObjects limit); a key already gone is not an error. */
export async function deleteMediaObjects(keys: string[]): Promise<void> {
  if (!keys.length) return;
  const out = await s3Client().send(
    new DeleteObjectsCommand({ Bucket: env.mediaBucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
  );
  if (out.Errors?.length) throw new Error(`media delete failed for ${out.Errors.length} objects: ${out.Errors[0]?.Code ?? ''}`);
}

/** Deletes every object under `prefix`, a page of ListObjectsV2 (at most 1000 keys) per DeleteObjects. */
export async function deleteMediaUnder(prefix: string): Promise<number> {
  let deleted = 0;
  let ContinuationToken: string | undefined;
  do {
    const page = await s3Client().send(new ListObjectsV2Command({ Bucket: env.mediaBucket, Prefix: prefix, ContinuationToken }));
    const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    await deleteMediaObjects(keys);
    deleted += keys.length;
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return deleted;
}
