/**
 * The private media bucket as the domain needs it: uploads of our sends, existence checks,
 * short-lived presigned GETs, presigned PUTs for the browser's direct uploads, and removals. A port
 * (`MediaBucket`): the S3 adapter (adapters/media-bucket.ts) is wired by every entry whose code
 * reaches this (adapters/wiring.ts); unwired, a call throws naming the wiring. Callers check the
 * tenant prefix (keys.ts) before any of these; the removals below refuse a prefix or company that
 * could reach beyond one record or one tenant, whatever the adapter.
 */

import { port } from '#domain/port';

/** How the bucket answers a presigned GET (S3's response-* overrides), whatever the object's metadata says. */
export interface ServedAs {
  contentType: string;
  contentDisposition: string;
}

export interface MediaBucket {
  get(key: string): Promise<Uint8Array>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** A copy inside the bucket, content type kept: no bytes pass through the Lambda. */
  copy(from: string, to: string): Promise<void>;
  /** The object's content type and size, or undefined when there is no such object. */
  head(key: string): Promise<{ contentType: string; size: number } | undefined>;
  presignedGet(key: string, servedAs: ServedAs, expiresIn: number): Promise<string>;
  /** Content type and length both signed: the bucket refuses another size or type. */
  presignedPut(key: string, contentType: string, size: number, expiresIn: number): Promise<string>;
  delete(key: string): Promise<void>;
  /** Any number of keys, in as few calls as the bucket allows; gone keys are fine. */
  deleteMany(keys: string[]): Promise<void>;
  /** Every object under the prefix, however many; answers how many went. */
  deleteUnder(prefix: string): Promise<number>;
}

const bucket = port<MediaBucket>('media bucket');

/** Wires the bucket (adapters/wiring.ts, a test with its own); returns the previous one. */
export const setMediaBucket = bucket.set;

const wired = bucket.wired;

/** Long enough for the browser to follow the redirect, short enough that a leaked URL soon dies. */
export const PRESIGNED_GET_SECONDS = 300;

/** Long enough to upload the largest file on a slow line. */
export const PRESIGNED_PUT_SECONDS = 900;

export const getMedia = async (key: string): Promise<Uint8Array> => wired().get(key);

export const putMedia = async (key: string, body: Buffer, contentType: string): Promise<void> => wired().put(key, body, contentType);

export const copyMedia = async (from: string, to: string): Promise<void> => wired().copy(from, to);

export const headMedia = async (key: string) => wired().head(key);

export const presignedGet = async (key: string, servedAs: ServedAs, expiresIn = PRESIGNED_GET_SECONDS): Promise<string> =>
  wired().presignedGet(key, servedAs, expiresIn);

/** A URL the browser PUTs one file to, so a file never passes through a Lambda (6 MB payload limit). */
export const presignedPut = async (key: string, contentType: string, size: number, expiresIn = PRESIGNED_PUT_SECONDS): Promise<string> =>
  wired().presignedPut(key, contentType, size, expiresIn);

/** Removes an object no record names any more (a replaced or removed attachment); '' is nothing. */
export async function deleteMedia(key: string): Promise<void> {
  if (key) await wired().delete(key);
}

/** Removes many objects at once: erasing a contact or a retention sweep removes the media of hundreds of messages. */
export async function deleteMediaObjects(keys: string[]): Promise<void> {
  if (keys.length) await wired().deleteMany(keys);
}

/**
 * Removes every object under `prefix` (a folder of one record: a ticket's uploads). The prefix must
 * end with '/' and name a record, so a ticket 12 never takes ticket 123's files.
 */
export async function deleteMediaUnder(prefix: string): Promise<number> {
  if (!prefix.endsWith('/') || prefix.split('/').length < 3) throw new Error(`refusing to delete under ${prefix}`);
  return wired().deleteUnder(prefix);
}

/**
 * Removes every object of a tenant (`<companyId>/`: media of every area, company export zips); a
 * deleted company's. Running it again after a crash finishes the rest.
 */
export async function deleteTenantMedia(companyId: number): Promise<number> {
  if (!Number.isSafeInteger(companyId) || companyId < 1) throw new Error(`refusing to delete the media of company ${companyId}`);
  return wired().deleteUnder(`${companyId}/`);
}
