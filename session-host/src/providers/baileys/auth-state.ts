/**
 * Baileys auth state in the single table, one item per key:
 *
 *   pk = C#<companyId>   sk = WAAUTH#<connectionId>#creds           the account credentials
 *   pk = C#<companyId>   sk = WAAUTH#<connectionId>#<type>#<id>     one signal key (session, pre-key, ...)
 *
 * Baileys rewrites a handful of keys on every message; writing only those ids keeps each update a
 * few small writes instead of rewriting one growing blob. Values are serialised with BufferJSON (the
 * format Baileys' own stores use); a value over 64 KB (app-state hashes of large accounts) is stored
 * gzipped so it stays far below DynamoDB's 400 KB item limit.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, table } from '@conversa/functions/storage/db';
import { tenantPk } from '@conversa/functions/storage/table';
import {
  type AuthenticationCreds,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';

const GZIP_OVER = 64 * 1024;
const GET_BATCH = 100;
const WRITE_BATCH = 25;
const MAX_ATTEMPTS = 8;

export const authPrefix = (connectionId: number): string => `WAAUTH#${connectionId}#`;
export const credsSk = (connectionId: number): string => `${authPrefix(connectionId)}creds`;
export const keySk = (connectionId: number, type: string, id: string): string => `${authPrefix(connectionId)}${type}#${id}`;

export interface StoredAuthState {
  creds: AuthenticationCreds;
  keys: SignalKeyStore;
  /** True when no credentials were stored: this session has to log in (QR or pairing code). */
  created: boolean;
  /** Writes the current creds object (Baileys mutates it in place on `creds.update`). */
  saveCreds(): Promise<void>;
}

type Item = Record<string, unknown>;

function encode(value: unknown): { data?: string; gz?: Uint8Array } {
  const json = JSON.stringify(value, BufferJSON.replacer);
  return json.length > GZIP_OVER ? { gz: gzipSync(json) } : { data: json };
}

function decode(item: Item): unknown {
  const json = typeof item.data === 'string' ? item.data : gunzipSync(item.gz as Uint8Array).toString('utf8');
  return JSON.parse(json, BufferJSON.reviver);
}

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

async function batchGet(keys: { pk: string; sk: string }[]): Promise<Item[]> {
  const items: Item[] = [];
  await Promise.all(
    chunks(keys, GET_BATCH).map(async (chunk) => {
      let pending: Record<string, { Keys: Item[]; ConsistentRead: boolean }> | undefined = {
        [table()]: { Keys: chunk, ConsistentRead: true },
      };
      for (let attempt = 0; pending && Object.keys(pending).length; attempt++) {
        if (attempt >= MAX_ATTEMPTS) throw new Error('WAAUTH batch get: unprocessed keys after retries');
        if (attempt) await pause(attempt);
        const out = await db().send(new BatchGetCommand({ RequestItems: pending }));
        items.push(...(out.Responses?.[table()] ?? []));
        pending = out.UnprocessedKeys as typeof pending;
      }
    }),
  );
  return items;
}

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

async function batchWrite(requests: WriteRequest[]): Promise<void> {
  await Promise.all(
    chunks(requests, WRITE_BATCH).map(async (chunk) => {
      let pending: Record<string, WriteRequest[]> | undefined = { [table()]: chunk };
      for (let attempt = 0; pending && Object.keys(pending).length; attempt++) {
        if (attempt >= MAX_ATTEMPTS) throw new Error('WAAUTH batch write: unprocessed items after retries');
        if (attempt) await pause(attempt);
        const out = await db().send(new BatchWriteCommand({ RequestItems: pending }));
        pending = out.UnprocessedItems as typeof pending;
      }
    }),
  );
}

/** Reads (or creates) the auth state of one connection. Nothing touches the local disk. */
export async function loadAuthState(companyId: number, connectionId: number): Promise<StoredAuthState> {
  const pk = tenantPk(companyId);
  const stored = await db().send(new GetCommand({ TableName: table(), Key: { pk, sk: credsSk(connectionId) }, ConsistentRead: true }));
  const creds = stored.Item ? (decode(stored.Item) as AuthenticationCreds) : initAuthCreds();

  let saving: Promise<void> = Promise.resolve();
  const saveCreds = (): Promise<void> => {
    // Serialised so an older snapshot never lands after a newer one.
    const snapshot = encode(creds);
    saving = saving
      .catch(() => undefined)
      .then(() =>
        db()
          .send(
            new PutCommand({
              TableName: table(),
              Item: { pk, sk: credsSk(connectionId), entity: 'waauth', ...snapshot, updatedAt: new Date().toISOString() },
            }),
          )
          .then(() => undefined),
      );
    return saving;
  };

  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const result: { [id: string]: SignalDataTypeMap[T] } = {};
      if (!ids.length) return result;
      const unique = [...new Set(ids)];
      const bySk = new Map(unique.map((id) => [keySk(connectionId, type, id), id]));
      const items = await batchGet([...bySk.keys()].map((sk) => ({ pk, sk })));
      for (const item of items) {
        const id = bySk.get(item.sk as string);
        if (id === undefined) continue;
        let value = decode(item);
        if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
        result[id] = value as SignalDataTypeMap[T];
      }
      return result;
    },
    async set(data: SignalDataSet) {
      // Last value wins per key: a batch may not name the same key twice.
      const requests = new Map<string, WriteRequest>();
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          const sk = keySk(connectionId, type, id);
          requests.set(
            sk,
            value === null || value === undefined
              ? { DeleteRequest: { Key: { pk, sk } } }
              : { PutRequest: { Item: { pk, sk, entity: 'waauth', ...encode(value) } } },
          );
        }
      }
      if (requests.size) await batchWrite([...requests.values()]);
    },
    async clear() {
      await clearAuthState(companyId, connectionId);
    },
  };

  return { creds, keys, created: !stored.Item, saveCreds };
}

/** Deletes the creds and every signal key of the connection (New QR, logout, logged out by WhatsApp). */
export async function clearAuthState(companyId: number, connectionId: number): Promise<number> {
  const pk = tenantPk(companyId);
  let deleted = 0;
  let ExclusiveStartKey: Item | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': authPrefix(connectionId) },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    const requests = (out.Items ?? []).map((item): WriteRequest => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    await batchWrite(requests);
    deleted += requests.length;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return deleted;
}
