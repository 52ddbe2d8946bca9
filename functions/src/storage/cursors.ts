/**
 * Signed list cursors. A cursor is where a page stopped (a sort key, a contact id), handed to the
 * client and given back for the next page. It is sealed with an HMAC over the list's SCOPE (tenant,
 * caller where the list depends on them, the list and its filters) and the position, so:
 *   - an altered cursor, or anything the client made up, is a 400 before any read;
 *   - a cursor of another tenant, another user's view or another list (other filters, another
 *     route) does not verify either: the scope is not part of the cursor, each request rebuilds its own.
 * Positions are still checked against the list's key range after verification (keys are rebuilt
 * server-side from them, never taken from the client).
 *
 *   key   pk = PLATFORM#CURSOR_KEY   sk = KEY   { secret }   32 random bytes, made by the first
 *         container that needs it (a conditional put, so concurrent cold starts agree on one) and
 *         cached per container. The key lives in the table rather than in the environment: every
 *         function already reads the table, nothing has to be provisioned, and a leaked cursor
 *         signature reveals nothing about it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '#commons/errors';
import { db, isConditionalCheckFailed, table } from './db.ts';
import { PLATFORM_PK } from './table.ts';

const KEY_ITEM = { pk: `${PLATFORM_PK}#CURSOR_KEY`, sk: 'KEY' };
const SIGNATURE_BYTES = 16;
/** base64url of SIGNATURE_BYTES, compared as text: decoding would ignore the last character's spare bits. */
const SIGNATURE_TEXT = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((SIGNATURE_BYTES * 4) / 3)}}$`);

/** One key per table (unit tests give each file a table of its own). */
const keys = new Map<string, Promise<Buffer>>();

async function readKey(): Promise<Buffer | undefined> {
  const out = await db().send(new GetCommand({ TableName: table(), Key: KEY_ITEM, ConsistentRead: true }));
  return typeof out.Item?.secret === 'string' ? Buffer.from(out.Item.secret, 'base64') : undefined;
}

async function loadKey(): Promise<Buffer> {
  const stored = await readKey();
  if (stored) return stored;
  const secret = randomBytes(32);
  try {
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { ...KEY_ITEM, entity: 'cursorKey', secret: secret.toString('base64') },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return secret;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Another container made it first: use theirs.
    const theirs = await readKey();
    if (!theirs) throw error;
    return theirs;
  }
}

function cursorKey(): Promise<Buffer> {
  const name = table();
  let key = keys.get(name);
  if (!key) {
    key = loadKey();
    // A failed read is retried by the next request, not cached.
    key.catch(() => keys.delete(name));
    keys.set(name, key);
  }
  return key;
}

const sign = (key: Buffer, scope: string, payload: string): string =>
  createHmac('sha256', key).update(scope).update('\n').update(payload).digest().subarray(0, SIGNATURE_BYTES).toString('base64url');

/** The cursor of `position` in the list `scope` (any JSON value). */
export async function sealCursor(scope: string, position: unknown): Promise<string> {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${sign(await cursorKey(), scope, payload)}`;
}

export class InvalidCursorError extends ValidationError {
  constructor() {
    super('cursor', 'Invalid cursor');
  }
}

/** The position sealed in `cursor` for the list `scope`; an InvalidCursorError (400) for anything else. */
export async function openCursor(scope: string, cursor: string): Promise<unknown> {
  const [payload = '', signature = '', ...rest] = cursor.split('.');
  if (rest.length || !payload || !SIGNATURE_TEXT.test(signature)) throw new InvalidCursorError();
  const expected = sign(await cursorKey(), scope, payload);
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) throw new InvalidCursorError();
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
}

/** A stable text of a list's filters for its scope (object keys sorted, undefined left out). */
export function scopeOf(...parts: unknown[]): string {
  const stable = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
            .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
        )
      : Array.isArray(value)
        ? value.map(stable)
        : value;
  return JSON.stringify(parts.map(stable));
}
