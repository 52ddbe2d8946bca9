/**
 * The HTTP scaffolding of the small AWS stand-ins written here (mail-sink.ts for SES, cloudwatch.ts
 * for PutMetricData): a server on 127.0.0.1 whose handler's thrown StandInError becomes the
 * service's own error answer (any other error a 500 of the service's internal-failure code), a body
 * reader capped as the service caps requests, and a stop that ends open keep-alive connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the service refuses: its error code, message and HTTP status. */
export class StandInError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface StandInServer {
  endpoint: string;
  stop(): Promise<void>;
}

export interface StandInOptions {
  port: number;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Writes an error as the service's protocol shapes it. */
  answerError: (res: ServerResponse, status: number, code: string, message: string) => void;
  /** The code of the service's own 500. */
  internalCode: string;
}

export async function startStandIn({ port, handle, answerError, internalCode }: StandInOptions): Promise<StandInServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof StandInError) answerError(res, error.status, error.code, error.message);
      else answerError(res, 500, internalCode, error instanceof Error ? error.message : String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request's body, refused with `tooLarge()` (and the connection dropped) past `maxBytes`. */
export function readCappedBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
