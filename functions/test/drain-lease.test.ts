/**
 * The queue's drain lease (storage/tickets/routing.ts): one router gives out a queue's line at a
 * time, a trigger while it drains is never lost (the owner passes again for it), and a lease whose
 * owner died is taken over once its time has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonDrain, releaseDrain, requestDrain } from '../src/storage/tickets/routing.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const LEASE = 15_000;
let company = 7000;

describe('the drain lease', () => {
  it('the first trigger owns the drain; one arriving meanwhile makes the owner pass again instead of draining itself', async () => {
    // Prepare: a queue nobody drains
    const companyId = ++company;
    // Act: router a asks, then b while a drains
    const a = await requestDrain(companyId, 1, 'a', LEASE);
    const b = await requestDrain(companyId, 1, 'b', LEASE);
    // Assess: a owns it, b leaves it to a; a may not leave with b's trigger unserved
    expect(a).toBeTypeOf('number');
    expect(b).toBeUndefined();
    const again = await releaseDrain(companyId, 1, 'a', a as number, LEASE);
    expect(again).toBe((a as number) + 1);
    // nobody asked during the second pass: a leaves, and the next trigger owns the drain
    expect(await releaseDrain(companyId, 1, 'a', again as number, LEASE)).toBeUndefined();
    expect(await requestDrain(companyId, 1, 'c', LEASE)).toBeTypeOf('number');
    // another queue of the same company has its own lease
    expect(await requestDrain(companyId, 2, 'd', LEASE)).toBeTypeOf('number');
  });

  it('a lease whose owner died is taken over once it expired; the late owner then leaves without draining again', async () => {
    const companyId = ++company;
    const t0 = Date.now();
    const a = await requestDrain(companyId, 1, 'a', LEASE, () => t0);
    expect(await requestDrain(companyId, 1, 'b', LEASE, () => t0 + LEASE - 1)).toBeUndefined();
    const b = await requestDrain(companyId, 1, 'b', LEASE, () => t0 + LEASE + 1);
    expect(a).toBeTypeOf('number');
    expect(b).toBeTypeOf('number');
    expect(await releaseDrain(companyId, 1, 'a', a as number, LEASE)).toBeUndefined();
    // b still owns it: c only counts itself
    expect(await requestDrain(companyId, 1, 'c', LEASE, () => t0 + LEASE + 2)).toBeUndefined();
  });

  it('abandoning leaves the lease to the next trigger, and only its owner can abandon it', async () => {
    const companyId = ++company;
    await requestDrain(companyId, 1, 'a', LEASE);
    await abandonDrain(companyId, 1, 'someone else');
    expect(await requestDrain(companyId, 1, 'b', LEASE)).toBeUndefined();
    await abandonDrain(companyId, 1, 'a');
    expect(await requestDrain(companyId, 1, 'b', LEASE)).toBeTypeOf('number');
  });
});
