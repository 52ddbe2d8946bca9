/// <reference path="./s3rver.d.ts" />
/**
 * S3 locally: s3rver (in-process) with the media bucket and a CORS rule so the browser can PUT to
 * and GET from presigned URLs, as the deployed bucket's CORS allows, and their signatures checked
 * as S3 checks them (s3-signatures.ts): a grant's content type and length are the only ones taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import AWSAccount from 's3rver/lib/models/account.js';
import { presignedRefusal } from './s3-signatures.ts';

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
    // s3rver does not compute SigV4 (it would refuse every SDK call): presignedRefusal checks the
    // presigned URLs instead, the ones a browser holds.
    allowMismatchedSignatures: true,
    vhostBuckets: false,
    configureBuckets: opts.buckets.map((name) => ({ name, configs: [CORS] })),
  });
  // First in line, before s3rver's own (Koa) middleware: what S3 checks of a presigned URL.
  server.middleware.unshift(async (ctx, next) => {
    const refusal = presignedRefusal({ method: ctx.method, url: ctx.url, headers: ctx.headers });
    if (!refusal) return next();
    ctx.status = 403;
    // As S3 answers a refused request that its CORS rule matches: the browser may read the refusal.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`;
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
