/**
 * Lambda's Invoke API (`POST /2015-03-31/functions/{name}/invocations`, RequestResponse) for the user
 * pool's triggers: cognito-local invokes them through its Lambda client, as Cognito invokes the
 * deployed functions (functions/src/declarations/cognito-triggers.ts). The handler runs in this
 * process, like every other local handler; a thrown error is answered as Lambda does (200 with
 * `X-Amz-Function-Error: Unhandled`), which Cognito turns into UserLambdaValidationException.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cognitoTriggers } from '@conversa/functions/declarations/cognito-triggers';
import { handlerFile, lambdaContext, loadHandler } from './lambda-runtime.ts';

export interface LambdaInvokeEndpoint {
  url: string;
  close(): Promise<void>;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export async function startLambdaInvoke(opts: { log: (line: string) => void }): Promise<LambdaInvokeEndpoint> {
  const names = new Set(cognitoTriggers.map((trigger) => trigger.name));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const name = decodeURIComponent(INVOKE_PATH.exec(req.url ?? '')?.[1] ?? '');
      if (req.method !== 'POST' || !names.has(name)) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' });
        res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${name}` }));
        return;
      }
      void invoke(name, Buffer.concat(chunks).toString('utf8')).then(({ payload, failed }) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(failed ? { 'x-amz-function-error': 'Unhandled' } : {}) });
        res.end(payload);
      });
    });
  });

  const invoke = async (name: string, body: string): Promise<{ payload: string; failed: boolean }> => {
    try {
      const handler = await loadHandler(handlerFile('triggers', name));
      const result: unknown = await handler(body ? JSON.parse(body) : {}, lambdaContext(`conversa-${name}`));
      return { payload: JSON.stringify(result ?? null), failed: false };
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      opts.log(`[lambda] ${name} failed: ${err.stack ?? err.message}`);
      return { payload: JSON.stringify({ errorType: err.name, errorMessage: err.message }), failed: true };
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
