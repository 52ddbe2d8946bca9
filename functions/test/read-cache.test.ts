import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItemBatched } from '../src/storage/batch-get.ts';
import { db, table } from '../src/storage/db.ts';
import { hints, readCache } from '../src/storage/read-cache.ts';
import { listSettings, listSettingsCached, putSetting } from '../src/storage/settings.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

describe('read caches', () => {
  it('serves one read until the ttl passes, shares it in flight, forgets on write and after a failure', async () => {
    // Prepare
    let clock = 0;
    let reads = 0;
    let failNext = false;
    const cache = readCache(
      async (key: number) => {
        reads++;
        if (failNext) {
          failNext = false;
          throw new Error('read failed');
        }
        return `value ${key} #${reads}`;
      },
      { ttlMs: 5_000, now: () => clock },
    );

    // Act + Assess: concurrent readers share one read; a hit within the ttl reads nothing
    expect(await Promise.all([cache.get(1), cache.get(1)])).toEqual(['value 1 #1', 'value 1 #1']);
    clock = 4_999;
    expect(await cache.get(1)).toBe('value 1 #1');
    expect(reads).toBe(1);
    // Past the ttl: read again
    clock = 5_000;
    expect(await cache.get(1)).toBe('value 1 #2');
    // A write forgets the entry: the next reader reads
    cache.forget(1);
    expect(await cache.get(1)).toBe('value 1 #3');
    // A failed read is not kept
    cache.forget(1);
    failNext = true;
    await expect(cache.get(1)).rejects.toThrow('read failed');
    expect(await cache.get(1)).toBe('value 1 #5');
  });

  it('drops a read that was in flight when a write forgot its key', async () => {
    // Prepare
    let release: (value: string) => void = () => undefined;
    let reads = 0;
    const cache = readCache(
      (_key: string) => {
        reads++;
        return reads === 1 ? new Promise<string>((resolve) => (release = resolve)) : Promise.resolve('after the write');
      },
      { ttlMs: 5_000 },
    );

    // Act: a read starts, a write forgets the key, then the old read lands
    const before = cache.get('k');
    cache.forget('k');
    release('before the write');

    // Assess: its caller gets what it read; later readers get a fresh read, not the old value
    expect(await before).toBe('before the write');
    expect(await cache.get('k')).toBe('after the write');
  });

  it('keeps settings a write of this container changed, and lets another writer be seen after the ttl only', async () => {
    // Prepare
    const companyId = 9_101;
    await putSetting(companyId, 'timezone', 'UTC');
    const cached = await listSettingsCached(companyId);
    const timezone = (settings: { key: string; value: string }[]) => settings.find((s) => s.key === 'timezone')?.value;
    expect(timezone(cached)).toBe('UTC');

    // Act: a write through the storage module, then one around it (another container)
    await putSetting(companyId, 'timezone', 'America/Sao_Paulo');
    const afterOwnWrite = await listSettingsCached(companyId);
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: `C#${companyId}`, sk: 'SETTING#timezone', entity: 'setting', key: 'timezone', value: 'Europe/Lisbon' },
      }),
    );

    // Assess
    expect(timezone(afterOwnWrite)).toBe('America/Sao_Paulo');
    expect(timezone(await listSettingsCached(companyId))).toBe('America/Sao_Paulo');
    expect(timezone(await listSettings(companyId))).toBe('Europe/Lisbon');
  });

  it('hints keep the newest entries up to their bound', () => {
    const seen = hints<number>(2);
    seen.set('a', 1);
    seen.set('b', 2);
    seen.set('a', 3);
    seen.set('c', 4);
    expect([seen.get('a'), seen.get('b'), seen.get('c')]).toEqual([3, undefined, 4]);
    seen.forget('a');
    expect(seen.get('a')).toBeUndefined();
  });
});

describe('batched point reads', () => {
  it('reads the keys asked in one turn, present or not, repeated or not, and more than 100 of them', async () => {
    // Prepare
    const pk = (i: number) => `BATCHGET#${i}`;
    for (let i = 0; i < 120; i += 2) {
      await db().send(new PutCommand({ TableName: table(), Item: { pk: pk(i), sk: 'ITEM', entity: 'test', n: i } }));
    }

    // Act
    const read = await Promise.all([
      ...Array.from({ length: 120 }, (_, i) => getItemBatched<{ n: number }>({ pk: pk(i), sk: 'ITEM' })),
      getItemBatched<{ n: number }>({ pk: pk(4), sk: 'ITEM' }),
    ]);

    // Assess: even keys found without their storage keys, odd ones absent, the repeated one twice
    expect(read.slice(0, 6)).toEqual([{ n: 0 }, undefined, { n: 2 }, undefined, { n: 4 }, undefined]);
    expect(read[118]).toEqual({ n: 118 });
    expect(read[119]).toBeUndefined();
    expect(read[120]).toEqual({ n: 4 });
  });
});
