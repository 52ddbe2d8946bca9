// s3rver 3.7.1 ships no types; this covers what s3.ts uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  /** The Koa context, as far as s3.ts reads and writes it. */
  interface S3rverContext {
    method: string;
    url: string;
    headers: import('node:http').IncomingHttpHeaders;
    status: number;
    type: string;
    body: unknown;
    set(name: string, value: string): void;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list (S3rver extends Koa): composed when run() starts the server. */
    middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

declare module 's3rver/lib/models/account.js' {
  const AWSAccount: { DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void } };
  export default AWSAccount;
}
