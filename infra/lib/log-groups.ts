import { RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** One retention for every log group the stack owns: long enough to debug, short enough to cost little. */
export const LOG_RETENTION = RetentionDays.ONE_MONTH;

/**
 * A log group with retention declared. Services that would otherwise create their own group on first
 * write (Lambda, ECS, API Gateway) get one of these, so no group lives forever by accident.
 */
export function retainedLogGroup(scope: Construct, id: string): LogGroup {
  // Logs are diagnostics, not records: dropping them with the stack is fine and avoids orphaned groups.
  return new LogGroup(scope, id, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
}
