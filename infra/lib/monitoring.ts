import { SESSION_HOST_METRICS } from '@conversa/session-host/metric-names';
import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { FargateService } from 'aws-cdk-lib/aws-ecs';
import { type IGrantable, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { DeclaredQueue } from './messaging.ts';
import { acknowledge, policyOwnerOf } from './nag.ts';
import type { SessionHostService } from './session-host-service.ts';
import type { DeclaredStreamConsumer } from './table-streams.ts';

/**
 * Custom metrics of the session-host, named once in session-host/src/metric-names.ts and published
 * by the host every minute with PutMetricData (session-host/src/metrics.ts; its task role may, in
 * this namespace only):
 * - OrphanSessions: wanted sessions that no live host runs, counted by each host's takeover scan
 *   (storage/leases.ts's `isFree` on a wanted lease), a statistic set per minute; alarmed on Maximum.
 * - SendFailures: sends reported as `sendFailed` (send-executor.ts's failSend), one per send.
 */
export { SESSION_HOST_METRICS };

/** A stream consumer's IteratorAge (milliseconds) above which, for five minutes, it is behind. */
export const STREAM_LAG_ALARM_MS = 60_000;

export interface MonitoringProps {
  /** Receives every alarm by e-mail; no subscription when absent (context `alarmEmail`). */
  alarmEmail?: string;
  functions: ReadonlyMap<string, IFunction>;
  queues: readonly DeclaredQueue[];
  /** The table stream's consumers (table-streams.ts): their DLQs, and their Lambdas' lag behind the stream. */
  streamConsumers?: readonly DeclaredStreamConsumer[];
  sessionHost: SessionHostService;
  /** The WebSocket API and stage whose connects the dashboard counts. */
  realtime?: { apiId: string; stageName: string };
  /** The table and its index names, whose throttled requests alarm. */
  table?: { tableName: string; indexNames: readonly string[] };
}

/**
 * What tells the operator something broke in this region: one SNS topic that every alarm notifies
 * (and an e-mail subscriber from context), alarms on each DLQ, each Lambda (and a stream consumer's
 * lag) and the session-host, and one dashboard of the traffic that matters (inbound rate, send
 * failures, DLQ depth, sockets).
 *
 * Each Lambda has one alarm on `errors + throttles` (a metric math expression) instead of one alarm
 * per metric: 35 Lambdas once the spec is complete would otherwise be 70 alarms in a template that must
 * stay under 300 resources. The notification names the function; its graphs say which of the two.
 * The region's stack builds it inside a nested stack of its own, so the alarms do not count against
 * the region's template; the names of what it watches arrive as that stack's parameters.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { account } = Stack.of(this);
    const stackName = regionStackName(this);
    this.topic = new Topic(this, 'Alarms', { displayName: `${stackName} alarms`, enforceSSL: true });
    // The TLS-only policy replaces the topic's default one, so CloudWatch's right to publish is explicit.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    acknowledge(
      this.topic,
      'SNS2',
      'Alarm notifications carry alarm names and states only; CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a customer key per region costs more than the data is worth.',
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const minute = Duration.minutes(1);
    const dlqDepth = new Map<string, IMetric>();
    for (const { declaration, deadLetterQueue } of props.queues) {
      const depth = deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: minute, statistic: 'Maximum' });
      dlqDepth.set(declaration.name, depth);
      this.alarm(`${declaration.name}-dlq`, depth, {
        description: `${declaration.name} has dead-lettered messages: work that failed maxReceiveCount times waits for a redrive.`,
      });
    }

    for (const consumer of props.streamConsumers ?? []) this.streamConsumerAlarms(consumer, props.functions, dlqDepth);

    for (const [name, fn] of props.functions) {
      const period = Duration.minutes(5);
      const failures = new MathExpression({
        expression: 'errors + throttles',
        usingMetrics: {
          errors: fn.metricErrors({ period, statistic: 'Sum' }),
          throttles: fn.metricThrottles({ period, statistic: 'Sum' }),
        },
        label: `${name} errors + throttles`,
        period,
      });
      this.alarm(`${name}-failures`, failures, { description: `The ${name} Lambda failed or was throttled.` });
    }

    // One per service (egress group): the notification names the address whose hosts are missing.
    for (const { egressGroup, service } of props.sessionHost.groups) {
      const missingTasks = new MathExpression({
        expression: 'desired - running',
        usingMetrics: {
          desired: sessionHostTasks(service, 'DesiredTaskCount', 'Maximum', egressGroup),
          running: sessionHostTasks(service, 'RunningTaskCount', 'Minimum', egressGroup),
        },
        label: `session-host ${egressGroup} tasks missing`,
        period: minute,
      });
      // Five minutes: a replaced task takes a minute or two to pull and start; deploys add tasks first.
      this.alarm(`session-host-tasks-${egressGroup}`, missingTasks, {
        description: `The session-host service of ${egressGroup} runs fewer tasks than desired: its WhatsApp sessions wait for a takeover.`,
        evaluationPeriods: 5,
      });
    }
    const orphanSessions = new Metric({
      namespace: SESSION_HOST_METRICS.namespace,
      metricName: SESSION_HOST_METRICS.orphanSessions,
      period: minute,
      statistic: 'Maximum',
    });
    // A dead host's leases run out after 40 s and a live host's scan takes them within 10 s more
    // (15 s more again when the hosts that scan leave them to an emptier one: placement's grace).
    // Also what a fleet without room looks like: every host full refuses the orphans (its log says so).
    this.alarm('orphan-sessions', orphanSessions, {
      description: 'WhatsApp sessions are wanted but no session-host has owned them for minutes (hosts missing, or every host full).',
      evaluationPeriods: 3,
    });

    if (props.table) this.tableThrottles(props.table);

    this.dashboard = this.dashboardOf(props, dlqDepth);
  }

  /**
   * Requests DynamoDB refused for capacity, on the table or any index, for ten minutes running: with
   * provisioned capacity, traffic auto scaling has not caught up with (or a range's maximum too low:
   * context tableWriteCapacity, tableReadCapacity); on demand, a partition past 1,000 write units a
   * second (README "Capacity of one region"). The SDK retries a throttled request, so a blip of a
   * minute costs latency, not messages, and does not page anyone.
   */
  private tableThrottles(table: { tableName: string; indexNames: readonly string[] }): void {
    const period = Duration.minutes(5);
    const throttles = (metricName: string, index?: string) => tableMetric(table.tableName, metricName, period, index);
    const usingMetrics: Record<string, IMetric> = { reads: throttles('ReadThrottleEvents'), writes: throttles('WriteThrottleEvents') };
    for (const [i, index] of table.indexNames.entries()) {
      usingMetrics[`index${i}reads`] = throttles('ReadThrottleEvents', index);
      usingMetrics[`index${i}writes`] = throttles('WriteThrottleEvents', index);
    }
    const expression = new MathExpression({
      expression: Object.keys(usingMetrics).join(' + '),
      usingMetrics,
      label: 'table and index throttled requests',
      period,
    });
    this.alarm('table-throttles', expression, {
      description: 'DynamoDB refused requests for capacity for ten minutes: raise the table capacity range, or look for a hot partition.',
      evaluationPeriods: 2,
    });
  }

  /**
   * A stream consumer's DLQ as soon as it holds one failed batch (the records it names are not in the
   * index until replayed), and its Lambda's lag: the age of the newest record it was handed, above a
   * minute for five minutes running, means the writes outrun it (or a batch is being retried), and
   * what they change (the message words) is found late.
   */
  private streamConsumerAlarms(
    { declaration, deadLetterQueue }: DeclaredStreamConsumer,
    functions: ReadonlyMap<string, IFunction>,
    dlqDepth: Map<string, IMetric>,
  ): void {
    const minute = Duration.minutes(1);
    const depth = deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: minute, statistic: 'Maximum' });
    dlqDepth.set(`${declaration.name}-stream`, depth);
    this.alarm(`${declaration.name}-stream-dlq`, depth, {
      description: `The ${declaration.name} stream consumer gave up on records (${declaration.retryAttempts} retries, or ${declaration.maxRecordAgeSeconds / 3600} h old): its DLQ names them, to replay.`,
    });
    const fn = functions.get(declaration.name);
    if (!fn) return;
    this.alarm(`${declaration.name}-iterator-age`, fn.metric('IteratorAge', { period: minute, statistic: 'Maximum' }), {
      description: `The ${declaration.name} stream consumer has been more than a minute behind the table's writes for five minutes.`,
      threshold: STREAM_LAG_ALARM_MS,
      evaluationPeriods: 5,
    });
  }

  /** The session-host's right to publish its custom metrics (PutMetricData has no resource to scope to). */
  grantPublishSessionHostMetrics(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': SESSION_HOST_METRICS.namespace } },
      }),
    );
    acknowledge(
      policyOwnerOf(grantee),
      'IAM5[Resource::*]',
      'cloudwatch:PutMetricData has no resource-level permissions; the condition keeps it to the Conversa/SessionHost namespace.',
    );
  }

  /** An alarm on `metric > threshold` (0 unless given) that notifies (and un-notifies) the region's topic. */
  private alarm(id: string, metric: IMetric, opts: { description: string; evaluationPeriods?: number; threshold?: number }): void {
    const alarm = new Alarm(this, id, {
      metric,
      alarmDescription: `${regionStackName(this)}: ${opts.description}`,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      threshold: opts.threshold ?? 0,
      evaluationPeriods: opts.evaluationPeriods ?? 1,
      // No data means nothing happened: idle Lambdas and empty queues publish no points.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }

  private dashboardOf(props: MonitoringProps, dlqDepth: ReadonlyMap<string, IMetric>): Dashboard {
    const minute = Duration.minutes(1);
    const inbound = props.queues.find((q) => q.declaration.name === 'inbound');
    const inboundConsumer = inbound?.declaration.consumer ? props.functions.get(inbound.declaration.consumer) : undefined;
    const commands = dlqDepth.get('session-commands');
    const sessionHostMetric = (metricName: string, label: string) =>
      new Metric({ namespace: SESSION_HOST_METRICS.namespace, metricName, period: minute, statistic: 'Sum', label });
    const dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboards are named per account, not per region: the stack name keeps each region's apart.
      // The suffix is new with the nested stack: a region updated from the root-stack dashboard (named
      // just the stack) creates this one beside it, and the old one's cleanup cannot delete it by name.
      dashboardName: `${regionStackName(this)}-overview`,
      defaultInterval: Duration.hours(3),
    });
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Inbound messages per minute',
        left: [
          ...(inbound
            ? [inbound.queue.metricNumberOfMessagesSent({ period: minute, statistic: 'Sum', label: 'queued by the session-host' })]
            : []),
          ...(inboundConsumer
            ? [inboundConsumer.metricInvocations({ period: minute, statistic: 'Sum', label: 'consumer invocations' })]
            : []),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'Send failures',
        left: [sessionHostMetric(SESSION_HOST_METRICS.sendFailures, 'sendFailed reported')],
        right: commands ? [commands] : [],
        rightYAxis: { label: 'commands dead-lettered', min: 0 },
        width: 12,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({ title: 'Dead-letter queue depth', left: [...dlqDepth.values()], width: 8 }),
      new GraphWidget({
        title: 'Sockets',
        left: props.realtime
          ? [
              new Metric({
                namespace: 'AWS/ApiGateway',
                metricName: 'ConnectCount',
                dimensionsMap: { ApiId: props.realtime.apiId, Stage: props.realtime.stageName },
                period: minute,
                statistic: 'Sum',
                label: 'WebSocket connects',
              }),
            ]
          : [],
        width: 8,
      }),
      new GraphWidget({
        title: 'Session-host',
        left: props.sessionHost.groups.flatMap(({ egressGroup, service }) => [
          sessionHostTasks(service, 'RunningTaskCount', 'Minimum', egressGroup),
          sessionHostTasks(service, 'DesiredTaskCount', 'Maximum', egressGroup),
        ]),
        right: [
          new Metric({
            namespace: SESSION_HOST_METRICS.namespace,
            metricName: SESSION_HOST_METRICS.orphanSessions,
            period: minute,
            statistic: 'Maximum',
            label: 'sessions without an owner',
          }),
        ],
        rightYAxis: { min: 0 },
        width: 8,
      }),
    );
    if (props.table) dashboard.addWidgets(tableUnitsWidget(props.table.tableName));
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }));
    return dashboard;
  }
}

/**
 * The region's stack name, also from inside a nested stack (where Stack.of gives the nested one's
 * generated name): the topic, the alarms' descriptions and the dashboard are named after the region.
 */
function regionStackName(scope: Construct): string {
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  return stack.stackName;
}

/** A DynamoDB metric of the table (or of one of its indexes), summed over `period`. */
function tableMetric(tableName: string, metricName: string, period: Duration, index?: string): Metric {
  return new Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
    period,
    statistic: 'Sum',
  });
}

/**
 * The table's consumed write and read units a second (the indexes' writes are billed apart, on
 * their own metrics): what the region pays DynamoDB for, on demand, and what the capacity ranges of
 * provisioned mode must hold (context tableWriteCapacity, tableReadCapacity).
 */
function tableUnitsWidget(tableName: string): GraphWidget {
  const minute = Duration.minutes(1);
  const perSecond = (metricName: string, label: string, id: string) =>
    new MathExpression({
      expression: `${id} / 60`,
      usingMetrics: { [id]: tableMetric(tableName, metricName, minute) },
      label,
      period: minute,
    });
  return new GraphWidget({
    title: 'Table units a second',
    left: [perSecond('ConsumedWriteCapacityUnits', 'write units', 'writes'), perSecond('ConsumedReadCapacityUnits', 'read units', 'reads')],
    leftYAxis: { min: 0 },
    width: 24,
  });
}

/** A session-host service's task counts from Container Insights (enabled on its cluster). */
function sessionHostTasks(
  service: FargateService,
  metricName: 'RunningTaskCount' | 'DesiredTaskCount',
  statistic: string,
  egressGroup: string,
): Metric {
  return new Metric({
    label: `${egressGroup} ${metricName === 'RunningTaskCount' ? 'running' : 'desired'}`,
    namespace: 'ECS/ContainerInsights',
    metricName,
    dimensionsMap: { ClusterName: service.cluster.clusterName, ServiceName: service.serviceName },
    period: Duration.minutes(1),
    statistic,
  });
}
