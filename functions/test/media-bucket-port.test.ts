/**
 * The media bucket port (domain/media/bucket.ts) and its S3 adapter, without S3: an unwired bucket
 * throws naming the wiring; the removals refuse a prefix or company that could reach beyond one
 * record or one tenant before any call; nothing to remove makes no call; the presigned URLs last
 * what the domain says; the adapter removes many keys a thousand a DeleteObjects call.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { s3MediaBucket } from '#adapters/media-bucket';
import {
  deleteMedia,
  deleteMediaObjects,
  deleteMediaUnder,
  deleteTenantMedia,
  getMedia,
  type MediaBucket,
  presignedGet,
  presignedPut,
  setMediaBucket,
} from '#domain/media/bucket';

const s3Batches: string[][] = [];
vi.mock('../src/adapters/media-bucket-s3.ts', () => ({
  deleteMediaObjects: async (keys: string[]) => void s3Batches.push(keys),
}));

/** A bucket that records each call as `name arg...`. */
function recordingBucket(): { calls: string[]; bucket: MediaBucket } {
  const calls: string[] = [];
  const record =
    (name: string, answer: unknown = undefined) =>
    async (...args: unknown[]) => {
      calls.push([name, ...args.map((arg) => (typeof arg === 'object' ? JSON.stringify(arg) : String(arg)))].join(' '));
      return answer;
    };
  const bucket = {
    get: record('get', new Uint8Array()),
    put: record('put'),
    copy: record('copy'),
    head: record('head'),
    presignedGet: record('presignedGet', 'https://get'),
    presignedPut: record('presignedPut', 'https://put'),
    delete: record('delete'),
    deleteMany: record('deleteMany'),
    deleteUnder: record('deleteUnder', 3),
  } as MediaBucket;
  return { calls, bucket };
}

afterEach(() => {
  setMediaBucket(undefined);
});

describe('the media bucket port', () => {
  it('throws naming the wiring when no entry wired a bucket', async () => {
    await expect(getMedia('1/tickets/2/a.png')).rejects.toThrow('#adapters/wiring');
  });

  it('refuses removals that could reach beyond one record or one tenant, before any call', async () => {
    const { calls, bucket } = recordingBucket();
    setMediaBucket(bucket);
    for (const prefix of ['', '1', '1/', '1/tickets', '/'])
      await expect(deleteMediaUnder(prefix), prefix).rejects.toThrow('refusing to delete under');
    for (const companyId of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      await expect(deleteTenantMedia(companyId), String(companyId)).rejects.toThrow('refusing to delete the media of company');
    expect(calls).toEqual([]);
    await expect(deleteMediaUnder('1/tickets/12/')).resolves.toBe(3);
    await expect(deleteTenantMedia(7)).resolves.toBe(3);
    expect(calls).toEqual(['deleteUnder 1/tickets/12/', 'deleteUnder 7/']);
  });

  it('makes no call for nothing to remove, and signs URLs for as long as the domain says', async () => {
    const { calls, bucket } = recordingBucket();
    setMediaBucket(bucket);
    await deleteMedia('');
    await deleteMediaObjects([]);
    expect(calls).toEqual([]);
    await presignedGet('1/a.png', { contentType: 'image/png', contentDisposition: 'inline' });
    await presignedPut('1/b.pdf', 'application/pdf', 10);
    expect(calls).toEqual([
      'presignedGet 1/a.png {"contentType":"image/png","contentDisposition":"inline"} 300',
      'presignedPut 1/b.pdf application/pdf 10 900',
    ]);
  });
});

describe('the S3 adapter', () => {
  it('removes many keys a thousand a DeleteObjects call', async () => {
    const keys = Array.from({ length: 2500 }, (_, i) => `1/tickets/9/${i}.png`);
    await s3MediaBucket.deleteMany(keys);
    expect(s3Batches.map((batch) => batch.length)).toEqual([1000, 1000, 500]);
    expect(s3Batches.flat()).toEqual(keys);
  });
});
