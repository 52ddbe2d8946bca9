/**
 * The single table, declared once. `infra/` builds the DynamoDB table from this declaration and
 * the local stack creates DynamoDB Local's table from it too.
 *
 * Key conventions (every partition key of tenant data starts with the tenant, `C#<companyId>`):
 *   pk = C#<companyId>            sk = <ENTITY>#<zero-padded id>      tenant-owned records
 *   pk = PLATFORM                 sk = PLAN#..., HELP#..., COMPANY#... platform records (super users)
 *   pk = C#<companyId>#<scope>    sk = ...                            large per-tenant collections
 * GSIs are generic (gsiNpk / gsiNsk); each entity file says which access pattern it puts there.
 */
export const TABLE_LOGICAL_NAME = 'conversa';

export interface IndexDeclaration {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const tableDeclaration = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * DynamoDB TTL attribute (epoch seconds): idempotency keys, socket connections, rate-limit windows,
   * sign-in challenges, password-reset codes (users/reset-codes.ts: PLATFORM#RESET_CODE#<address hash>).
   */
  timeToLiveAttribute: 'expiresAt',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ] satisfies IndexDeclaration[],
} as const;

export type IndexName = (typeof tableDeclaration.globalIndexes)[number]['name'];

/** Zero-padded so numeric ids sort as strings. */
export const pad = (id: number): string => id.toString().padStart(10, '0');

export const tenantPk = (companyId: number): string => `C#${companyId}`;
export const PLATFORM_PK = 'PLATFORM';
