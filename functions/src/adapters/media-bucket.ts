/**
 * The media bucket on S3 (domain/media/bucket.ts's port). The S3 calls (media-bucket-s3.ts) are
 * imported on first use, not at cold start: of the Lambdas that bundle this, most requests never
 * touch the bucket (a message sent without media, a schedule or quick message saved without a file),
 * and the S3 client with the presigner would be ~100 KB of every cold start (`npm run bench:bundles`).
 */
import type { MediaBucket } from '#domain/media/bucket';

type S3Calls = typeof import('./media-bucket-s3.ts');

let calls: Promise<S3Calls> | undefined;

function s3(): Promise<S3Calls> {
  calls ??= import('./media-bucket-s3.ts');
  calls.catch(() => (calls = undefined)); // a failed load is tried again by the next call
  return calls;
}

/** DeleteObjects takes a thousand keys a call. */
const DELETE_BATCH = 1000;

export const s3MediaBucket: MediaBucket = {
  get: async (key) => (await s3()).getMedia(key),
  put: async (key, body, contentType) => (await s3()).putMedia(key, body, contentType),
  copy: async (from, to) => (await s3()).copyMedia(from, to),
  head: async (key) => (await s3()).headMedia(key),
  presignedGet: async (key, servedAs, expiresIn) => (await s3()).presignedGet(key, servedAs, expiresIn),
  presignedPut: async (key, contentType, size, expiresIn) => (await s3()).presignedPut(key, contentType, size, expiresIn),
  delete: async (key) => (await s3()).deleteMedia(key),
  deleteMany: async (keys) => {
    const loaded = await s3();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) await loaded.deleteMediaObjects(keys.slice(i, i + DELETE_BATCH));
  },
  deleteUnder: async (prefix) => (await s3()).deleteMediaUnder(prefix),
};
