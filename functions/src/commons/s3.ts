/** The S3 client of the media bucket, created on first use (see dynamodb.ts for why one module per client). */
import { S3Client } from '@aws-sdk/client-s3';
import { env } from './env.ts';

let s3: S3Client | undefined;

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    region: env.region,
    endpoint: env.s3Endpoint,
    forcePathStyle: Boolean(env.s3Endpoint),
    // The SDK's default (WHEN_SUPPORTED) signs the CRC32 of an empty body into a presigned PUT
    // (x-amz-checksum-crc32=AAAAAA==), and S3 refuses every real upload to that URL (BadDigest).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return s3;
}
