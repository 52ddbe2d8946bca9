/**
 * WhatsApp connections of a company.
 *   connection    pk = C#<companyId>                      sk = WAPP#<padded id>
 *   token guard   pk = PLATFORM#WATOKEN#<sha256(token)>   sk = GUARD   { companyId, connectionId }
 * The external messages API authenticates with a connection's token alone, so a token must be
 * unique platform-wide and resolvable without knowing the tenant. The guard is written in the same
 * transaction as the connection (unique, and a strongly consistent token -> connection lookup right
 * after a save, when a GSI could still lag). The key holds a digest so the secret is not a key.
 * `queues` are resolved at read time from `queueIds` by the domain layer.
 */
import { createHash } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError, ValidationError } from '#commons/errors';
import type { Connection } from '#contracts/connections';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, stripKeys, table, updateExpression } from './db.ts';
import type { LimitClaim } from './plans/limits.ts';
import { REFERENCE_TTL_MS, readCache } from './read-cache.ts';
import { PLATFORM_PK, pad, tenantPk } from './table.ts';
import { putGuarded, type UniqueGuard, updateGuarded } from './unique-guard.ts';

export type ConnectionRecord = Omit<Connection, 'queues'>;
export type ConnectionPatch = Partial<Omit<ConnectionRecord, 'id' | 'companyId' | 'createdAt'>>;
/** What the session-host writes as a session moves through its states. */
export type ConnectionSessionPatch = Partial<Pick<ConnectionRecord, 'status' | 'qrcode' | 'retries' | 'number'>>;

const TOKEN_IN_USE = 'Token already in use';

const connectionKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `WAPP#${pad(id)}` });
const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');
const tokenGuardKey = (token: string) => ({ pk: `${PLATFORM_PK}#WATOKEN#${tokenDigest(token)}`, sk: 'GUARD' });

/** An empty token (the connection has none) has no guard. */
const tokenGuard = (companyId: number, connectionId: number): UniqueGuard<ConnectionRecord> => ({
  field: 'token',
  keyOf: (token) => (token ? tokenGuardKey(token) : undefined),
  item: { entity: 'connectionTokenGuard', companyId, connectionId },
  conflict: () => new ValidationError('token', TOKEN_IN_USE),
});

export const newConnectionId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'WAPP');

export const getConnection = (companyId: number, id: number): Promise<ConnectionRecord | undefined> =>
  getItem<ConnectionRecord>(tenantPk(companyId), `WAPP#${pad(id)}`);

const connectionCache = readCache(
  (key: string) => {
    const [companyId, id] = key.split(':').map(Number);
    return getConnection(companyId as number, id as number);
  },
  { ttlMs: REFERENCE_TTL_MS },
);
const listCache = readCache((companyId: number) => listConnections(companyId), { ttlMs: REFERENCE_TTL_MS });
const forgetConnection = (companyId: number, id: number) => {
  connectionCache.forget(`${companyId}:${id}`);
  listCache.forget(companyId);
};

/** getConnection through this container's read cache (read-cache.ts): a hot path's read, up to 5 s stale. */
export const getConnectionCached = (companyId: number, id: number): Promise<ConnectionRecord | undefined> =>
  connectionCache.get(`${companyId}:${id}`);

/** A company's connections, by id. Bounded by the plan's connection limit. */
export function listConnections(companyId: number): Promise<ConnectionRecord[]> {
  return queryAll<ConnectionRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'WAPP#' },
    ConsistentRead: true,
  });
}

/** listConnections through this container's read cache (read-cache.ts): a page's connection names, up to 5 s stale. */
export const listConnectionsCached = (companyId: number): Promise<ConnectionRecord[]> => listCache.get(companyId);

export async function getDefaultConnection(companyId: number): Promise<ConnectionRecord | undefined> {
  return (await listConnections(companyId)).find((connection) => connection.isDefault);
}

/** The connection a token belongs to (external messages API). Strongly consistent through the guard. */
export async function getConnectionByToken(token: string): Promise<ConnectionRecord | undefined> {
  if (!token) return undefined;
  const guard = await getItem<{ companyId: number; connectionId: number }>(tokenGuardKey(token).pk, 'GUARD');
  if (!guard) return undefined;
  const connection = await getConnection(guard.companyId, guard.connectionId);
  // The guard and the record are written together; this check keeps a stale guard from ever matching.
  return connection?.token === token ? connection : undefined;
}

export async function createConnection(record: ConnectionRecord, claim?: LimitClaim): Promise<ConnectionRecord> {
  await putGuarded({
    item: { ...connectionKey(record.companyId, record.id), entity: 'connection', ...record },
    guards: [tokenGuard(record.companyId, record.id)],
    claim,
  });
  forgetConnection(record.companyId, record.id);
  return record;
}

/** Partial update; moving the token moves its guard in the same transaction. Bumps updatedAt. */
export async function updateConnection(companyId: number, id: number, patch: ConnectionPatch): Promise<ConnectionRecord> {
  const current = await getConnection(companyId, id);
  if (!current) throw new NotFoundError('ERR_NO_WAPP_FOUND');
  const updated = await updateGuarded({
    key: connectionKey(companyId, id),
    current,
    changes: { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() },
    guards: [tokenGuard(companyId, id)],
    notFound: () => new NotFoundError('ERR_NO_WAPP_FOUND'),
  });
  forgetConnection(companyId, id);
  return updated;
}

/**
 * Session state written by the session-host (status, QR, retries, number). Returns the updated
 * record, or undefined when the connection was deleted meanwhile (never recreates it).
 */
export async function updateConnectionSession(
  companyId: number,
  id: number,
  patch: ConnectionSessionPatch,
  now = new Date(),
): Promise<ConnectionRecord | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: connectionKey(companyId, id),
        ...updateExpression({ ...patch, updatedAt: now.toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    forgetConnection(companyId, id);
    return stripKeys<ConnectionRecord>(out.Attributes ?? {});
  } catch (error) {
    if (isConditionalCheckFailed(error)) return undefined;
    throw error;
  }
}

export async function deleteConnection(companyId: number, id: number): Promise<ConnectionRecord> {
  const current = await getConnection(companyId, id);
  if (!current) throw new NotFoundError('ERR_NO_WAPP_FOUND');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table(), Key: connectionKey(companyId, id) } },
        ...(current.token ? [{ Delete: { TableName: table(), Key: tokenGuardKey(current.token) } }] : []),
      ],
    }),
  );
  forgetConnection(companyId, id);
  return current;
}
