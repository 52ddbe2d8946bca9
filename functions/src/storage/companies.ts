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
import {
  db,
  getItem,
  isConditionalCheckFailed,
  nextId,
  queryAll,
  stripKeys,
  table,
  transactionCancellationCodes,
  updateExpression,
} from './db.ts';
import { PLATFORM_PK, pad, tenantPk } from './table.ts';

/** The stored company: no joined plan or settings; `dueDate` is `YYYY-MM-DD` or null (no due date). */
export type CompanyRecord = Omit<Company, 'plan' | 'settings'>;
export type CompanyPatch = Partial<Omit<CompanyRecord, 'id' | 'createdAt'>>;

const COMPANY_SK = 'COMPANY';
const companyKey = (id: number) => ({ pk: tenantPk(id), sk: COMPANY_SK });
const nameGuardKey = (name: string) => ({ pk: `${PLATFORM_PK}#COMPANY_NAME#${name.trim().toLowerCase()}`, sk: 'GUARD' });
const listKeys = (id: number) => ({ gsi1pk: `${PLATFORM_PK}#COMPANIES`, gsi1sk: pad(id) });

export const newCompanyId = (): Promise<number> => nextId(PLATFORM_PK, 'COMPANY');

export const getCompany = (id: number): Promise<CompanyRecord | undefined> => getItem<CompanyRecord>(tenantPk(id), COMPANY_SK);

export function listCompanies(): Promise<CompanyRecord[]> {
  return queryAll<CompanyRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `${PLATFORM_PK}#COMPANIES` },
  });
}

function nameTaken(error: unknown, guardIndex: number): boolean {
  return transactionCancellationCodes(error)?.[guardIndex] === 'ConditionalCheckFailed';
}

export async function createCompany(record: CompanyRecord): Promise<CompanyRecord> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...companyKey(record.id), ...listKeys(record.id), entity: 'company', ...record },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...nameGuardKey(record.name), entity: 'companyNameGuard', companyId: record.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (nameTaken(error, 1)) throw new ConflictError('ERR_COMPANY_NAME_EXISTS');
    throw error;
  }
  return record;
}

export async function updateCompany(id: number, patch: CompanyPatch): Promise<CompanyRecord> {
  const current = await getCompany(id);
  if (!current) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  const changes = { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() };
  const update = updateExpression(changes);
  const renamed = patch.name !== undefined && patch.name.trim().toLowerCase() !== current.name.trim().toLowerCase();

  if (!renamed) {
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: companyKey(id),
          ...update,
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return stripKeys<CompanyRecord>(out.Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
      throw error;
    }
  }

  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: companyKey(id),
              ...update,
              // The name we move the guard from must still be the stored one.
              ConditionExpression: 'attribute_exists(pk) AND #oldName = :oldName',
              ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#oldName': 'name' },
              ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':oldName': current.name },
            },
          },
          { Delete: { TableName: table(), Key: nameGuardKey(current.name) } },
          {
            Put: {
              TableName: table(),
              Item: { ...nameGuardKey(patch.name as string), entity: 'companyNameGuard', companyId: id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (nameTaken(error, 2)) throw new ConflictError('ERR_COMPANY_NAME_EXISTS');
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    throw error;
  }
  return { ...current, ...(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as CompanyPatch) };
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
}
