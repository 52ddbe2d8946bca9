import { TABLE_STREAM_VIEW } from '@conversa/functions/declarations/table-streams';
import { tableDeclaration } from '@conversa/functions/storage/table';
import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type CfnTable,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { acknowledge, nagArnOf, policyOwnerOf } from './nag.ts';

/** Anything that takes environment variables: a Lambda function or an ECS container. */
export interface EnvironmentTarget {
  addEnvironment(key: string, value: string): unknown;
}

/** Capacity units the auto scaling keeps between (context `tableWriteCapacity`, `tableReadCapacity`). */
export interface CapacityRange {
  min: number;
  max: number;
}

/**
 * How the operator pays for the table (context `tableCapacity`, context.ts). On demand (the default)
 * bills each request; provisioned bills the capacity kept ready by the hour, which auto scaling holds
 * at `targetUtilizationPercent` of what the table uses (table-auto-scaling.ts), within the ranges.
 */
export type TableCapacity =
  | { mode: 'on-demand' }
  | { mode: 'provisioned'; writes: CapacityRange; reads: CapacityRange; targetUtilizationPercent: number };

export const ON_DEMAND: TableCapacity = { mode: 'on-demand' };

/**
 * The single table, built from the same declarations the storage module and the stream consumers
 * use, so keys, GSIs and the stream's view cannot drift between code and infrastructure.
 */
export class DataTable extends Construct {
  readonly table: Table;
  /** The GSIs' names, as storage/table.ts declares them (auto scaling and the alarms name each). */
  readonly indexNames: readonly string[] = tableDeclaration.globalIndexes.map((index) => index.name);

  constructor(scope: Construct, id: string, capacity: TableCapacity = ON_DEMAND) {
    super(scope, id);
    const s = (name: string) => ({ name, type: AttributeType.STRING });
    // Provisioned: the table and each index start at their ranges' floor; auto scaling moves them.
    const throughput = capacity.mode === 'provisioned' ? { readCapacity: capacity.reads.min, writeCapacity: capacity.writes.min } : {};
    this.table = new Table(this, 'Table', {
      partitionKey: s(tableDeclaration.partitionKey),
      sortKey: s(tableDeclaration.sortKey),
      billingMode: capacity.mode === 'provisioned' ? BillingMode.PROVISIONED : BillingMode.PAY_PER_REQUEST,
      ...throughput,
      timeToLiveAttribute: tableDeclaration.timeToLiveAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      // Its consumers (declarations/table-streams.ts) read what a write changed from the stream, off
      // the write's own path. Turning it on for a deployed table is an in-place update.
      stream: StreamViewType[TABLE_STREAM_VIEW],
      // Tenant data: never dropped by a stack delete or a careless replace.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    for (const index of tableDeclaration.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: s(index.partitionKey),
        sortKey: s(index.sortKey),
        // Generic GSIs serve many entities; projecting ALL keeps every access pattern a single query.
        projectionType: ProjectionType.ALL,
        ...throughput,
      });
    }
  }

  /** TABLE_NAME and the data-plane grant in one call, so a function can never get one without the other. */
  bind(target: EnvironmentTarget, grantee: IGrantable, access: 'read' | 'readWrite' = 'readWrite'): void {
    target.addEnvironment('TABLE_NAME', this.table.tableName);
    if (access === 'read') this.table.grantReadData(grantee);
    else {
      this.table.grantReadWriteData(grantee);
      // PartiQL's UPDATE is UpdateItem by another name: the inbound consumer's batched link marks
      // (functions/src/storage/messages/messages.ts markLinksDispatched) go through BatchExecuteStatement.
      this.table.grant(grantee, 'dynamodb:PartiQLUpdate');
    }
    const owner = policyOwnerOf(grantee);
    acknowledge(
      owner,
      `IAM5[Resource::${nagArnOf(this.table.node.defaultChild as CfnTable, owner)}/index/*]`,
      'Queries on the generic GSIs (gsi1..gsi3 of storage/table.ts) need the index ARNs; all of them belong to this one table.',
    );
  }
}
