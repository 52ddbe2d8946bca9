/**
 * The private media bucket: uploads of our sends, existence checks, short-lived presigned GETs, and
 * presigned PUTs for the browser's direct uploads, removal of attachments no record names.
 * Callers check the tenant prefix (domain/media/keys.ts) before any of these.
 */
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { env } from '#commons/env';
import { s3Client } from '#commons/s3';

/** Long enough for the browser to follow the redirect, short enough that a leaked URL soon dies. */
export const PRESIGNED_GET_SECONDS = 300;

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

export function presignedGet(key: string, expiresIn = PRESIGNED_GET_SECONDS): Promise<string> {
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: env.mediaBucket, Key: key }), { expiresIn });
}

/** Long enough to upload the largest file on a slow line. */
export const PRESIGNED_PUT_SECONDS = 900;

/**
 * A URL the browser PUTs one file to, with exactly this content type and length (both signed: S3
 * refuses another size or type), so a file never passes through a Lambda (6 MB payload limit).
 */
export function presignedPut(key: string, contentType: string, size: number, expiresIn = PRESIGNED_PUT_SECONDS): Promise<string> {
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
