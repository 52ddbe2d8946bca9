import { Stack } from 'aws-cdk-lib';
import { PredefinedMetric, ScalableTarget, ServiceNamespace } from 'aws-cdk-lib/aws-applicationautoscaling';
import { Role } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { CapacityRange, TableCapacity } from './data-table.ts';

export interface TableAutoScalingProps {
  tableName: string;
  indexNames: readonly string[];
  capacity: Extract<TableCapacity, { mode: 'provisioned' }>;
}

/**
 * Auto scaling of a provisioned table (context `tableCapacity=provisioned`): the read and the write
 * capacity of the table and of each GSI, each tracking the share of it that DynamoDB reports
 * consumed (its `...CapacityUtilization` metric) at the target, within the ranges. An index gets its
 * own target: the list indexes take about 2 write units a message, the table about 12 (bench:cost).
 *
 * The region's stack builds it in a nested stack of its own (16 resources the region's template need
 * not hold); the table arrives by name, and Application Auto Scaling acts through its service-linked
 * role for DynamoDB, which it creates on first use.
 */
export class TableAutoScaling extends Construct {
  constructor(scope: Construct, id: string, props: TableAutoScalingProps) {
    super(scope, id);
    const { tableName, capacity } = props;
    const role = Role.fromRoleArn(
      this,
      'ScalingRole',
      Stack.of(this).formatArn({
        service: 'iam',
        region: '',
        resource: 'role/aws-service-role/dynamodb.application-autoscaling.amazonaws.com',
        resourceName: 'AWSServiceRoleForApplicationAutoScaling_DynamoDBTable',
      }),
    );
    const scaled = [
      { id: 'Table', resourceId: `table/${tableName}`, kind: 'table' },
      ...props.indexNames.map((name) => ({ id: name, resourceId: `table/${tableName}/index/${name}`, kind: 'index' })),
    ];
    const units: Array<[string, CapacityRange, PredefinedMetric]> = [
      ['Write', capacity.writes, PredefinedMetric.DYNAMODB_WRITE_CAPACITY_UTILIZATION],
      ['Read', capacity.reads, PredefinedMetric.DYNAMODB_READ_CAPACITY_UTILIZATION],
    ];
    for (const { id: part, resourceId, kind } of scaled)
      for (const [unit, range, predefinedMetric] of units) {
        const target = new ScalableTarget(this, `${part}${unit}`, {
          serviceNamespace: ServiceNamespace.DYNAMODB,
          resourceId,
          scalableDimension: `dynamodb:${kind}:${unit}CapacityUnits`,
          minCapacity: range.min,
          maxCapacity: range.max,
          role,
        });
        target.scaleToTrackMetric('Utilization', { predefinedMetric, targetValue: capacity.targetUtilizationPercent });
      }
  }
}
