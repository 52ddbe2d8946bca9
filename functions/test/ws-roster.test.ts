/**
 * A publish reads the tenant's sockets through its roster mark (storage/ws-connections.ts
 * listCompanyConnectionsCached): queried again only when a socket connected, left, or changed what a
 * publish filters on, and never stale after such a change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionRecord,
  deleteConnection,
  listCompanyConnectionsCached,
  type NewConnection,
  putConnection,
  setConnectionStatus,
  setConnectionViewer,
  setReading,
} from '../src/storage/ws-connections.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';
import { countCommands, watchCommands } from './support/sdk-watch.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

let nextCompany = 91_000;
const far = () => Math.floor(Date.now() / 1000) + 3600;
const socket = (companyId: number, connectionId: string, userId = 1): NewConnection => ({
  connectionId,
  companyId,
  userId,
  profile: 'user',
  super: false,
  queueIds: [],
  allTicket: 'desabled',
  tokenExpiresAt: far(),
  tokenIssuedAt: 0,
  tokenJti: '',
  tokenOrigin: '',
});
const ids = (list: ConnectionRecord[]) => list.map((c) => c.connectionId).sort();

describe("a tenant's sockets for a publish", () => {
  it('are queried once while nothing changes, then again after each change, which they show at once', async () => {
    const companyId = nextCompany++;
    const other = nextCompany++;
    await putConnection(socket(companyId, 'a1'));
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['a1']);

    // Nothing changed: three reads of the mark, no Query; a heartbeat moves nothing either
    await setConnectionStatus(companyId, 'a1', 'away', new Date().toISOString());
    let counted = countCommands();
    for (let i = 0; i < 3; i++) expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['a1']);
    counted.stop();
    expect(counted.sent.get('QueryCommand')).toBeUndefined();
    expect(counted.sent.get('BatchGetItemCommand')).toBe(3);

    // Another tenant's socket leaves this tenant's list as it was
    await putConnection(socket(other, 'o1'));
    counted = countCommands();
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['a1']);
    counted.stop();
    expect(counted.sent.get('QueryCommand')).toBeUndefined();

    // A socket connects, changes its viewer, opens a conversation by a mention, leaves: each read shows it
    await putConnection(socket(companyId, 'a2', 2));
    counted = countCommands();
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['a1', 'a2']);
    counted.stop();
    expect(counted.sent.get('QueryCommand')).toBe(1);
    await setConnectionViewer(companyId, 'a2', { profile: 'admin', super: false, queueIds: [7], allTicket: 'enabled' });
    expect((await listCompanyConnectionsCached(companyId)).find((c) => c.connectionId === 'a2')).toMatchObject({
      profile: 'admin',
      queueIds: [7],
      allTicket: 'enabled',
    });
    const until = new Date(Date.now() + 60_000).toISOString();
    await setReading(companyId, 'a1', { ticketId: 5, ref: '5', until });
    expect((await listCompanyConnectionsCached(companyId)).find((c) => c.connectionId === 'a1')?.reading).toEqual({
      ticketId: 5,
      ref: '5',
      until,
    });
    await deleteConnection(companyId, 'a1');
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['a2']);
    expect(ids(await listCompanyConnectionsCached(other))).toEqual(['o1']);
  });

  it('a mark the table throttles fails no connect: the next change that moves it shows both', async () => {
    const companyId = nextCompany++;
    await putConnection(socket(companyId, 'd1'));
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['d1']);
    // A mass reconnect: the mark's item is throttled for this connect
    let throttled = 0;
    const stop = watchCommands((name, input) => {
      if (name !== 'UpdateItemCommand' || !JSON.stringify(input).includes('WSROSTER')) return;
      throttled++;
      throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' });
    });
    await expect(putConnection(socket(companyId, 'd2'))).resolves.toMatchObject({ connectionId: 'd2' });
    stop();
    expect(throttled).toBe(1);

    await putConnection(socket(companyId, 'd3'));
    expect(ids(await listCompanyConnectionsCached(companyId))).toEqual(['d1', 'd2', 'd3']);
  });

  it('read beside other point reads of the same turn, in one BatchGetItem', async () => {
    const companyId = nextCompany++;
    const other = nextCompany++;
    await putConnection(socket(companyId, 'b1'));
    await putConnection(socket(other, 'c1'));
    await Promise.all([listCompanyConnectionsCached(companyId), listCompanyConnectionsCached(other)]);

    const counted = countCommands();
    const [mine, theirs] = await Promise.all([listCompanyConnectionsCached(companyId), listCompanyConnectionsCached(other)]);
    counted.stop();

    expect([ids(mine), ids(theirs)]).toEqual([['b1'], ['c1']]);
    expect(Object.fromEntries(counted.sent)).toEqual({ BatchGetItemCommand: 1 });
  });
});
