/**
 * Everything the local stores hold: every item of the table (a full Scan) and every object of the
 * media bucket (ListObjectsV2 + GetObject). Tests that promise "nothing of X is left anywhere"
 * (a contact's erasure, a company's deletion) read the whole store instead of the keys they expect.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '#storage/db';
import { BUCKET } from './messages-harness.ts';

export const localS3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** Every item of the table. */
export async function scanTable(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: table(), ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Every object of the media bucket, key and bytes as text. */
export async function scanBucket(): Promise<{ key: string; body: string }[]> {
  const objects: { key: string; body: string }[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await localS3().send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken }));
    for (const object of page.Contents ?? []) {
      const got = await localS3().send(new GetObjectCommand({ Bucket: BUCKET, Key: object.Key }));
      objects.push({ key: object.Key as string, body: Buffer.from((await got.Body?.transformToByteArray()) ?? []).toString() });
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return objects;
}
