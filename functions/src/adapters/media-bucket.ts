/**
 * The private media bucket: uploads of our sends, existence checks, short-lived presigned GETs, and
 * presigned PUTs for the browser's direct uploads, removal of attachments no record names.
 * Callers check the tenant prefix (domain/media/keys.ts) before any of these.
 *
 * The S3 calls (media-bucket-s3.ts) are imported on first use, not at cold start: of the Lambdas
 * that bundle this, most requests never touch the bucket (a message sent without media, a schedule
 * or quick message saved without a file), and the S3 client with the presigner would be ~100 KB of
 * every cold start (`npm run bench:bundles`).
 */
type S3Calls = typeof import('./media-bucket-s3.ts');

let calls: Promise<S3Calls> | undefined;

function s3(): Promise<S3Calls> {
  calls ??= import('./media-bucket-s3.ts');
  calls.catch(() => (calls = undefined)); // a failed load is tried again by the next call
  return calls;
}

/** Long enough for the browser to follow the redirect, short enough that a leaked URL soon dies. */
export const PRESIGNED_GET_SECONDS = 300;

/** Long enough to upload the largest file on a slow line. */
export const PRESIGNED_PUT_SECONDS = 900;

export async function getMedia(key: string): Promise<Uint8Array> {
  return (await s3()).getMedia(key);
}

export async function putMedia(key: string, body: Buffer, contentType: string): Promise<void> {
  await (await s3()).putMedia(key, body, contentType);
}

/** A copy of `from` at `to` (content type kept), inside the bucket: no bytes pass through the Lambda. */
export async function copyMedia(from: string, to: string): Promise<void> {
  await (await s3()).copyMedia(from, to);
}

/** The object's content type and size, or undefined when there is no such object. */
export async function headMedia(key: string): Promise<{ contentType: string; size: number } | undefined> {
  return (await s3()).headMedia(key);
}

/** How the bucket answers a presigned GET (S3's response-* overrides), whatever the object's metadata says. */
export interface ServedAs {
  contentType: string;
  contentDisposition: string;
}

export async function presignedGet(key: string, servedAs: ServedAs, expiresIn = PRESIGNED_GET_SECONDS): Promise<string> {
  return (await s3()).presignedGet(key, servedAs, expiresIn);
}

/**
 * A URL the browser PUTs one file to, with exactly this content type and length (both signed: S3
 * refuses another size or type), so a file never passes through a Lambda (6 MB payload limit).
 */
export async function presignedPut(key: string, contentType: string, size: number, expiresIn = PRESIGNED_PUT_SECONDS): Promise<string> {
  return (await s3()).presignedPut(key, contentType, size, expiresIn);
}

/** Removes an object no record names any more (a replaced or removed attachment); '' is nothing. */
export async function deleteMedia(key: string): Promise<void> {
  if (!key) return;
  await (await s3()).deleteMedia(key);
}

/**
 * Removes many objects at once, a thousand a call (DeleteObjects), instead of one call each: erasing
 * a contact or a retention sweep removes the media of hundreds of messages. Gone keys are fine.
 */
export async function deleteMediaObjects(keys: string[]): Promise<void> {
  const calls = await s3();
  for (let i = 0; i < keys.length; i += 1000) await calls.deleteMediaObjects(keys.slice(i, i + 1000));
}

/**
 * Removes every object under `prefix` (a folder of one record: a ticket's uploads), however many;
 * answers how many went. The prefix must end with '/' so a ticket 12 never takes ticket 123's files.
 */
export async function deleteMediaUnder(prefix: string): Promise<number> {
  if (!prefix.endsWith('/') || prefix.split('/').length < 3) throw new Error(`refusing to delete under ${prefix}`);
  return (await s3()).deleteMediaUnder(prefix);
}

/**
 * Removes every object of a tenant (`<companyId>/`: media of every area, company export zips), a
 * thousand a DeleteObjects call; a deleted company's. Running it again after a crash finishes the rest.
 */
export async function deleteTenantMedia(companyId: number): Promise<number> {
  if (!Number.isSafeInteger(companyId) || companyId < 1) throw new Error(`refusing to delete the media of company ${companyId}`);
  return (await s3()).deleteMediaUnder(`${companyId}/`);
}
