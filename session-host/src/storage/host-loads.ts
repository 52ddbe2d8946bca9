/**
 * Host loads: what each live session-host publishes so the others can place sessions (placement.ts).
 *   load   pk = PLATFORM#WAHOST   sk = <hostId>
 *          { hostId, egressGroup, egressAddress?, sessions, room, rssBytes, limitBytes, heartbeatAt, expiresAt }
 * Not tenant data: one partition holds a row per host (a handful, a few hundred at most), rewritten
 * each scan and read whole, strongly consistent, by every host's scan. `expiresAt` lets DynamoDB drop
 * the rows of hosts that died; readers do not wait for it: a row older than `staleMs` is a dead host.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll, table } from '@conversa/functions/storage/db';
import { PLATFORM_PK } from '@conversa/functions/storage/table';

export interface HostLoad {
  hostId: string;
  /** The NAT (Elastic IP) this host's traffic leaves by: hosts of one group share an address. */
  egressGroup: string;
  /** The address itself, when the stack told the host (for the operator reading the table). */
  egressAddress?: string;
  /** Sessions it runs. */
  sessions: number;
  /** Sessions it can still take (capacity.ts). */
  room: number;
  rssBytes?: number;
  limitBytes?: number;
  heartbeatAt: number;
}

const PK = `${PLATFORM_PK}#WAHOST`;
/** Rows of dead hosts linger this long for whoever reads the table, then DynamoDB's TTL drops them. */
const KEEP_SECONDS = 3600;

export async function publishLoad(load: HostLoad): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: { pk: PK, sk: load.hostId, ...load, expiresAt: Math.floor(load.heartbeatAt / 1000) + KEEP_SECONDS },
    }),
  );
}

/** A host that stops (shutdown) leaves at once instead of looking live until its row is stale. */
export async function withdrawLoad(hostId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: { pk: PK, sk: hostId } }));
}

/** Hosts that published within `staleMs` of `now`. */
export async function listLiveLoads(opts: { now: number; staleMs: number }): Promise<HostLoad[]> {
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'heartbeatAt > :since',
    ExpressionAttributeValues: { ':pk': PK, ':since': opts.now - opts.staleMs },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    hostId: String(item.hostId),
    egressGroup: String(item.egressGroup),
    egressAddress: typeof item.egressAddress === 'string' ? item.egressAddress : undefined,
    sessions: Number(item.sessions),
    room: Number(item.room),
    heartbeatAt: Number(item.heartbeatAt),
  }));
}
