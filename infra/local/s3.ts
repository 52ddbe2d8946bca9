/// <reference path="./s3rver.d.ts" />
/**
 * S3 locally: s3rver (in-process) with the media bucket and a CORS rule so the browser can PUT to
 * and GET from presigned URLs, as the deployed bucket's CORS allows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';

// s3rver knows one access key (S3RVER); the stack and the tests sign every SDK call with `local`
// (DynamoDB Local keys its data by access key, so it must stay one value for all stand-ins).
AWSAccount.DUMMY_ACCOUNT.createKeyPair('local', 'local');

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** `directory` undefined keeps objects in a temp folder removed on stop. */
export async function startS3(opts: { port: number; directory?: string; buckets: string[] }): Promise<LocalS3> {
  const directory = opts.directory ?? mkdtempSync(join(tmpdir(), 'conversa-s3-'));
  const server = new S3rver({
    port: opts.port,
    address: '127.0.0.1',
    silent: true,
    directory,
    // Presigned URLs from the real SDK are signed with the dummy local credentials; never reject them.
    allowMismatchedSignatures: true,
    vhostBuckets: false,
    configureBuckets: opts.buckets.map((name) => ({ name, configs: [CORS] })),
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async stop() {
      await server.close();
      if (!opts.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
