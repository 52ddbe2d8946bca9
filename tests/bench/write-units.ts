/**
 * DynamoDB write units by partition, as AWS charges them, from the handlers' own write requests
 * (bench:hot-tenant, bench:cost). DynamoDB Local enforces no partition limit and over-reports a
 * transaction's units, so the writes are charged here: a middleware on the handlers' client reads
 * every item a write touches before and after it (with a client of its own, never counted) and
 * charges, as DynamoDB does, the base item's partition key ceil(max(before, after) / 1 KB) WCU
 * (the item's size as DynamoDB counts it, billedWriteUnits)
 * (twice in a transaction), and each index whose key the item holds a write of the new image in
 * its partition, plus a delete of the old image in its partition when the index key moved: its
 * partition or its sort key (AWS: "If an update to the table changes the value of an indexed key
 * attribute (from A to B), two writes are required", GSI.html#GSI.Writes; a ticket's list sort key
 * moves with every message). A conditional write that fails still costs its WCU. PartiQL writes
 * (ExecuteStatement, BatchExecuteStatement: the inbound links' `dispatched` mark) are charged as
 * the plain writes AWS bills them as.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { tableDeclaration } from '@conversa/functions/storage/table';
import { itemSize } from '../../functions/test/support/item-size.ts';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

/** DynamoDB's item size is its names and values in bytes; the JSON of the item is a close upper bound. */
export const writeUnitsOf = (item: Item | undefined) => Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item ?? {})) / 1024));

/**
 * The write units AWS bills for an item: its size as DynamoDB counts it (functions/test/support/
 * item-size.ts), a unit a KB. writeUnitsOf's JSON overstates it by a quarter (quotes, colons,
 * commas): a ticket of ~800 bytes is ~1,050 of JSON, which charged two units where DynamoDB bills one.
 */
export const billedWriteUnits = (item: Item | undefined) => Math.max(1, Math.ceil(itemSize(item ?? {}) / 1024));

/** The keys a write command touches, and whether it is a transaction (which costs twice). */
function keysOf(command: string, input: Record<string, unknown>): { keys: Key[]; transaction: boolean } {
  // The middleware sees the low-level command's name, its input plain or already marshalled ({ pk: { S: '...' } }).
  const keyOf = (entry: { Key?: Item; Item?: Item } | undefined): Key[] => {
    const source = entry?.Key ?? entry?.Item;
    const marshalled = typeof source?.pk === 'object' && source.pk !== null && 'S' in source.pk;
    const plain = marshalled ? (unmarshall(source as never) as Item) : source;
    return plain && typeof plain.pk === 'string' ? [{ pk: plain.pk, sk: String(plain.sk) }] : [];
  };
  switch (command.replace(/Command$/, '')) {
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return { keys: keyOf(input), transaction: false };
    case 'TransactWriteItems':
      return {
        transaction: true,
        keys: ((input.TransactItems ?? []) as Array<Record<string, { Key?: Item; Item?: Item }>>).flatMap((entry) =>
          keyOf(entry.Put ?? entry.Update ?? entry.Delete),
        ),
      };
    case 'BatchWriteItem':
      return {
        transaction: false,
        keys: Object.values(
          (input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }>>,
        )
          .flat()
          .flatMap((request) => keyOf(request.PutRequest ? { Item: request.PutRequest.Item } : { Key: request.DeleteRequest?.Key })),
      };
    case 'ExecuteStatement':
    case 'BatchExecuteStatement': {
      // An UPDATE/DELETE ... WHERE pk = ? AND sk = ?: the key is among its parameters (plain or marshalled).
      const statements = (input.Statements ?? [input]) as { Statement?: string; Parameters?: unknown[] }[];
      const value = (v: unknown) => (typeof v === 'object' && v !== null && 'S' in v ? (v as { S: string }).S : v);
      return {
        transaction: false,
        keys: statements.flatMap(({ Statement = '', Parameters = [] }) => {
          const where = Statement.search(/WHERE pk = \? AND sk = \?/);
          if (where < 0 || /^\s*SELECT/i.test(Statement)) return [];
          const at = (Statement.slice(0, where).match(/\?/g) ?? []).length;
          return [{ pk: String(value(Parameters[at])), sk: String(value(Parameters[at + 1])) }];
        }),
      };
    }
    default:
      return { keys: [], transaction: false };
  }
}

export interface WriteUnitMeter {
  /** Whether to charge this write (called as the write starts, in its async context). */
  enabled: () => boolean;
  /** WCU for one partition: "table <pk>" or "<index> <index partition key>". */
  charge: (partition: string, wcu: number) => void;
  /** The milliseconds the meter spent reading images for this write (a bench that times the handlers subtracts them). */
  spent?: (ms: number) => void;
}

/** Installs the write-unit middleware on `client` (the handlers' document client); `reader` reads the images. */
export function meterWriteUnits(
  client: DynamoDBDocumentClient,
  reader: DynamoDBDocumentClient,
  table: string,
  meter: WriteUnitMeter,
): void {
  const images = async (keys: Key[]): Promise<Map<string, Item>> => {
    const found = new Map<string, Item>();
    for (let i = 0; i < keys.length; i += 100) {
      const unique = [...new Map(keys.slice(i, i + 100).map((key) => [`${key.pk}|${key.sk}`, key])).values()];
      const out = await reader.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: unique, ConsistentRead: true } } }));
      for (const item of out.Responses?.[table] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    }
    return found;
  };
  const timed = async (keys: Key[]) => {
    const started = performance.now();
    try {
      return await images(keys);
    } finally {
      meter.spent?.(performance.now() - started);
    }
  };
  const account = (keys: Key[], before: Map<string, Item>, after: Map<string, Item>, transaction: boolean, failed: boolean) => {
    for (const key of keys) {
      const id = `${key.pk}|${key.sk}`;
      const [old, now] = [before.get(id), after.get(id)];
      meter.charge(`table ${key.pk}`, Math.max(billedWriteUnits(old), billedWriteUnits(now)) * (transaction ? 2 : 1));
      if (failed) continue;
      for (const index of tableDeclaration.globalIndexes) {
        const [from, to] = [old?.[index.partitionKey], now?.[index.partitionKey]];
        const moved = from !== to || old?.[index.sortKey] !== now?.[index.sortKey];
        if (from !== undefined && moved) meter.charge(`${index.name} ${String(from)}`, billedWriteUnits(old));
        if (to !== undefined && JSON.stringify(old) !== JSON.stringify(now))
          meter.charge(`${index.name} ${String(to)}`, billedWriteUnits(now));
      }
    }
  };
  client.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: Record<string, unknown> }) => {
      const { keys, transaction } = meter.enabled() ? keysOf(context.commandName ?? '', args.input) : { keys: [], transaction: false };
      if (!keys.length) return next(args);
      const before = await timed(keys);
      try {
        const out = await next(args);
        account(keys, before, await timed(keys), transaction, false);
        return out;
      } catch (error) {
        account(keys, before, before, transaction, true);
        throw error;
      }
    }) as never,
    { step: 'initialize', name: 'writeUnitMeter' },
  );
}
