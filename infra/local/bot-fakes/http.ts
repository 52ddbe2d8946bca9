/**
 * What the four fake providers share: reading a capped body, answering JSON, the scripted failures a
 * test steers with words in the message itself, and the bounded request logs tests read back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Past any client timeout (10 s by default, 15 s in the bot-turns consumer): `#lento` must end by the client giving up. */
export const SLOW_ANSWER_MS = 30_000;
const MAX_LOGGED = 1000;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(String(status));
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: 'body too large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function parseJson(raw: Buffer, invalid: () => HttpError): Record<string, unknown> {
  try {
    const value = JSON.parse(raw.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* below */
  }
  throw invalid();
}

/**
 * Words in the contact's message that make any fake misbehave, so a test (or a person at `npm start`)
 * can see each failure without a special endpoint:
 *   #lento   answers after 30 s (the client's timeout, 10 s by default and 15 s in bot-turns, ends it first)
 *   #lixo    answers 200 with a body that is not what the protocol promises
 *   #limite  answers 429
 *   #falha   answers 500
 * Resolves true when it answered (or will never answer): the caller stops there.
 */
export async function scripted(text: string, res: ServerResponse, timers: Set<NodeJS.Timeout>): Promise<boolean> {
  if (text.includes('#lento')) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, SLOW_ANSWER_MS);
      timers.add(timer);
      // The client gave up: nothing left to answer, and the timer must not keep the process alive.
      res.once('close', () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve();
      });
    });
    json(res, 200, { late: true });
    return true;
  }
  if (text.includes('#lixo')) {
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>502 Bad Gateway</body></html');
    return true;
  }
  if (text.includes('#limite')) {
    json(res, 429, { error: { code: 429, message: 'Rate limit reached (scripted by #limite)', status: 'RESOURCE_EXHAUSTED' } });
    return true;
  }
  if (text.includes('#falha')) {
    json(res, 500, { error: { code: 500, message: 'Internal error (scripted by #falha)', status: 'INTERNAL' } });
    return true;
  }
  return false;
}

/** What a fake received, newest last, bounded (one test run sends thousands of turns). */
export class RequestLog<T> {
  private readonly entries: T[] = [];
  add(entry: T): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_LOGGED) this.entries.shift();
  }
  all(): T[] {
    return [...this.entries];
  }
  filter(keep: (entry: T) => boolean): T[] {
    return this.entries.filter(keep);
  }
}
