/**
 * Runs Lambda handlers in-process the way the Lambda runtime would: the module is imported once
 * (a cold start) and its `handler` is called with the event and a context.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(fileURLToPath(import.meta.url), '../../..');
export const handlersDir = join(repoRoot, 'functions', 'src', 'handlers');

// biome-ignore lint/suspicious/noExplicitAny: events and results differ per trigger; each caller narrows them.
export type LambdaHandler = (event: any, context: LambdaContext) => Promise<any>;

export interface LambdaContext {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  callbackWaitsForEmptyEventLoop: boolean;
  getRemainingTimeInMillis(): number;
  done(): void;
  fail(): void;
  succeed(): void;
}

export function lambdaContext(functionName: string, timeoutMs = 30_000): LambdaContext {
  const deadline = Date.now() + timeoutMs;
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const loaded = new Map<string, Promise<LambdaHandler>>();

/**
 * A bench that bills each invocation (bench:cost) sets `around`: it is called for every handler call
 * with the function's name and event, and must call `invoke` once and return its result.
 */
export const invocationHook: {
  around?: (functionName: string, event: unknown, invoke: () => Promise<unknown>) => Promise<unknown>;
} = {};

/**
 * Milliseconds each handler's cold start took here (its module graph imported from the TypeScript
 * sources, transpiled on the fly), by path under functions/src/handlers: the benches report it
 * apart, since a deployed function starts from its bundle instead (`npm run bench:bundles`).
 */
export const coldStarts = new Map<string, number>();

/**
 * `kind/name` -> functions/src/handlers/<kind>/<name>.ts. A declared handler without its file is a
 * broken declaration (the deployed stack would not bundle either): it throws instead of being skipped.
 */
export function handlerFile(kind: 'http' | 'ws' | 'consumers' | 'jobs' | 'triggers' | 'streams', name: string): string {
  const file = join(handlersDir, kind, `${name}.ts`);
  if (!existsSync(file)) throw new Error(`functions/src/handlers/${kind}/${name}.ts does not exist`);
  return file;
}

export function loadHandler(file: string): Promise<LambdaHandler> {
  let pending = loaded.get(file);
  if (!pending) {
    const started = performance.now();
    pending = import(pathToFileURL(file).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${file} does not export a handler function`);
      coldStarts.set(file.slice(handlersDir.length + 1), performance.now() - started);
      const handler = mod.handler as LambdaHandler;
      return (event, context) =>
        invocationHook.around ? invocationHook.around(context.functionName, event, () => handler(event, context)) : handler(event, context);
    });
    // A failed import (a syntax error mid-edit) is retried on the next request instead of cached.
    pending.catch(() => loaded.delete(file));
    loaded.set(file, pending);
  }
  return pending;
}
