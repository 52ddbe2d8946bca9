/**
 * Companies (tenants).
 *   company record   pk = C#<companyId>                       sk = COMPANY
 *                    gsi1pk = PLATFORM#COMPANIES              gsi1sk = <padded id>   (super users' list)
 *   name guard       pk = PLATFORM#COMPANY_NAME#<lower name>  sk = GUARD   { companyId }
 * The guard makes company names unique platform-wide inside the same transaction as the write,
 * so two concurrent creates of one name cannot both succeed.
 */
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Company } from '#contracts/companies';
import { getItemBatched } from '../batch-get.ts';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, table, transactionCancellationCodes } from '../db.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { PLATFORM_PK, pad, tenantPk } from '../table.ts';
import { putGuarded, type UniqueGuard, updateGuarded } from '../unique-guard.ts';

/**
 * The stored company: no joined plan or settings; `dueDate` is `YYYY-MM-DD` or null (no due date).
 * `listShards` is the platform's, never the API's: how many write shards the tenant's ticket lists
 * have (list-shards.ts; absent = 1). It only grows, and only through raiseListShards.
 * `routingSwitchedOnAt`, the platform's too: when a queue of the company last switched automatic
 * assignment on (stampRoutingSwitchedOn).
 */
export type CompanyRecord = Omit<Company, 'plan' | 'settings'> & { listShards?: number; routingSwitchedOnAt?: string };
export type CompanyPatch = Partial<Omit<CompanyRecord, 'id' | 'createdAt' | 'listShards' | 'routingSwitchedOnAt'>>;

const COMPANY_SK = 'COMPANY';
/** Also written by storage/invoices.ts: a payment and the renewal it buys are one transaction. */
export const companyKey = (id: number) => ({ pk: tenantPk(id), sk: COMPANY_SK });
const nameGuardKey = (name: string) => ({ pk: `${PLATFORM_PK}#COMPANY_NAME#${name.trim().toLowerCase()}`, sk: 'GUARD' });
const listKeys = (id: number) => ({ gsi1pk: `${PLATFORM_PK}#COMPANIES`, gsi1sk: pad(id) });

export const newCompanyId = (): Promise<number> => nextId(PLATFORM_PK, 'COMPANY');

export const getCompany = (id: number): Promise<CompanyRecord | undefined> => getItem<CompanyRecord>(tenantPk(id), COMPANY_SK);

/** getCompany read with whatever else is asked for in this turn (batch-get.ts): strongly consistent, never cached. */
export const getCompanyBatched = (id: number): Promise<CompanyRecord | undefined> => getItemBatched<CompanyRecord>(companyKey(id));

const companyCache = readCache((id: number) => getCompany(id), { ttlMs: REFERENCE_TTL_MS });

/** getCompany through this container's read cache (read-cache.ts): a hot path's read, up to 5 s stale. */
export const getCompanyCached = (id: number): Promise<CompanyRecord | undefined> => companyCache.get(id);

/**
 * Raises the tenant's list shards to `shards` (never lowers them: a reader reads every shard below
 * the stored count, so a lower count would hide the tickets written above it). False when the
 * company is gone or already has as many.
 */
export async function raiseListShards(id: number, shards: number): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: companyKey(id),
        UpdateExpression: 'SET listShards = :shards',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(listShards) OR listShards < :shards)',
        ExpressionAttributeValues: { ':shards': shards },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  } finally {
    companyCache.forget(id);
  }
  return true;
}

/**
 * Notes on the company that one of its queues switched automatic assignment on at `at`: the minute's
 * sweep, which reads every company anyway, routes its queues for a while after (sweeps/run.ts), for
 * the tickets that other containers let by while their queue list still said off. Not cached: no
 * reader of the company cares.
 */
export async function stampRoutingSwitchedOn(id: number, at: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: companyKey(id),
      UpdateExpression: 'SET routingSwitchedOnAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

export function listCompanies(): Promise<CompanyRecord[]> {
  return queryAll<CompanyRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `${PLATFORM_PK}#COMPANIES` },
  });
}

const nameGuard = (companyId: number): UniqueGuard<CompanyRecord> => ({
  field: 'name',
  keyOf: nameGuardKey,
  item: { entity: 'companyNameGuard', companyId },
  conflict: () => new ConflictError('ERR_COMPANY_NAME_EXISTS'),
});

export async function createCompany(record: CompanyRecord): Promise<CompanyRecord> {
  await putGuarded({
    item: { ...companyKey(record.id), ...listKeys(record.id), entity: 'company', ...record },
    guards: [nameGuard(record.id)],
  });
  return record;
}

export async function updateCompany(id: number, patch: CompanyPatch): Promise<CompanyRecord> {
  const current = await getCompany(id);
  if (!current) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  const updated = await updateGuarded({
    key: companyKey(id),
    current,
    changes: { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() },
    guards: [nameGuard(id)],
    notFound: () => new NotFoundError('ERR_NO_COMPANY_FOUND'),
  });
  companyCache.forget(id);
  return updated;
}

/** Removes the company record and frees its name. Tenant data under C#<id> is the caller's to clear. */
export async function deleteCompany(id: number): Promise<void> {
  const current = await getCompany(id);
  if (!current) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  await db()
    .send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: table(), Key: companyKey(id) } },
          {
            Delete: {
              TableName: table(),
              Key: nameGuardKey(current.name),
              ConditionExpression: 'companyId = :id',
              ExpressionAttributeValues: { ':id': id },
            },
          },
        ],
      }),
    )
    .catch(async (error) => {
      // A guard already gone (or taken over) must not block the delete of the company itself.
      if (!transactionCancellationCodes(error)) throw error;
      await db().send(new DeleteCommand({ TableName: table(), Key: companyKey(id) }));
    });
  companyCache.forget(id);
}
