/**
 * The operator is told when something breaks: every dead-letter queue, every Lambda, a table stream
 * consumer's lag and the session-host have an alarm, every alarm notifies the region's topic, the topic e-mails the address
 * given as context, and one dashboard shows the inbound rate, send failures, DLQ depth and sockets.
 */
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import { tableDeclaration } from '@conversa/functions/storage/table';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { lambdaEntries } from '../lib/bundling.ts';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { SESSION_HOST_METRICS, STREAM_LAG_ALARM_MS } from '../lib/monitoring.ts';
import { logicalIdOf, resourcesOf, synthesize } from './synth.ts';

const ALARM_EMAIL = 'ops@example.com';
/** The region's stack (functions, queues, service) and the nested one holding the topic, alarms and dashboard. */
let template: Template;
let monitoring: Template;
let sessionHost: Template;
let stackName: string;
beforeAll(() => {
  let stack: { stackName: string };
  ({
    template,
    monitoringTemplate: monitoring,
    sessionHostTemplate: sessionHost,
    stack,
  } = synthesize({ bundle: false, context: { alarmEmail: ALARM_EMAIL } }));
  stackName = stack.stackName;
});

type Json = Record<string, unknown>;
type MetricStat = {
  Id: string;
  Expression?: string;
  MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: Json[] } };
};
const props = (type: string, of = template) => resourcesOf(of, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const watched = (type: string) => props(type, monitoring);
const alarms = () => watched('AWS::CloudWatch::Alarm').map(([, p]) => p);
const topicId = () => logicalIdOf(monitoring, 'AWS::SNS::Topic', 'MonitoringAlarms');
/** Alarms on a metric, directly or inside a math expression. */
const alarmsOn = (namespace: string, metricName: string) =>
  alarms().filter(
    (a) =>
      (a.Namespace === namespace && a.MetricName === metricName) ||
      ((a.Metrics as MetricStat[] | undefined) ?? []).some(
        (m) => m.MetricStat?.Metric.Namespace === namespace && m.MetricStat.Metric.MetricName === metricName,
      ),
  );

describe('alarm topic', () => {
  it('is the action of every alarm, on alarm and on recovery', () => {
    expect(alarms().length).toBeGreaterThan(0);
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId() }]);
    }
  });

  it('e-mails the address given as context `alarmEmail`', () => {
    const subscriptions = watched('AWS::SNS::Subscription');
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]![1]).toMatchObject({ Protocol: 'email', Endpoint: ALARM_EMAIL, TopicArn: { Ref: topicId() } });
  });

  it('lets CloudWatch publish to it and refuses plain HTTP', () => {
    const [[, policy]] = watched('AWS::SNS::TopicPolicy') as [[string, Json]];
    const statements = (policy.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Allow', Action: 'sns:Publish', Principal: { Service: 'cloudwatch.amazonaws.com' } }),
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      ]),
    );
  });
});

describe('alarms', () => {
  it.each(messageQueues.map((q) => [q.name]))('%s: its DLQ alarms as soon as one message is visible', (name) => {
    // Prepare
    const dlqId = props('AWS::SQS::Queue').find(([, p]) => String(p.QueueName).startsWith(`${stackName}-${name}-dlq`))![0];
    const onDlq = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible').filter((a) =>
      JSON.stringify(a.Dimensions).includes(`"${dlqId}","QueueName"`),
    );
    // Assess
    expect(onDlq).toHaveLength(1);
    expect(onDlq[0]).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, EvaluationPeriods: 1 });
  });

  it.each(tableStreamConsumers.map((c) => [c.name]))(
    '%s: the stream consumer alarms on its DLQ as soon as one batch is there, and on falling a minute behind for five',
    (name) => {
      // Prepare
      const dlqId = props('AWS::SQS::Queue').find(([, p]) => p.QueueName === `${stackName}-${name}-stream-dlq`)![0];
      const onDlq = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible').filter((a) =>
        JSON.stringify(a.Dimensions).includes(`"${dlqId}","QueueName"`),
      );
      const fnId = logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
      const onLag = alarmsOn('AWS/Lambda', 'IteratorAge').filter(
        (a) => JSON.stringify(a.Dimensions) === JSON.stringify([{ Name: 'FunctionName', Value: { Ref: fnId } }]),
      );
      // Assess
      expect(onDlq).toHaveLength(1);
      expect(onDlq[0]).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, EvaluationPeriods: 1 });
      expect(onLag).toHaveLength(1);
      expect(STREAM_LAG_ALARM_MS).toBe(60_000);
      expect(onLag[0]).toMatchObject({
        Statistic: 'Maximum',
        Period: 60,
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: STREAM_LAG_ALARM_MS,
        EvaluationPeriods: 5,
      });
    },
  );

  it.each(lambdaEntries().map((e) => [e.name]))('%s: one alarm on its errors plus its throttles above zero', (name) => {
    // Prepare
    const fnId = logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
    const own = alarms().filter((a) => JSON.stringify(a.Metrics ?? []).includes(`{"Name":"FunctionName","Value":{"Ref":"${fnId}"}}`));
    // Assess
    expect(own).toHaveLength(1);
    const metrics = own[0]!.Metrics as MetricStat[];
    const names = Object.fromEntries(metrics.filter((m) => m.MetricStat).map((m) => [m.Id, m.MetricStat!.Metric.MetricName]));
    expect(names).toEqual({ errors: 'Errors', throttles: 'Throttles' });
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('errors + throttles');
    expect(own[0]).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 });
  });

  it('session-host: alarms when Container Insights counts fewer running tasks than desired, for each service', () => {
    // Prepare: each service's name reaches the monitoring stack as an output of the session-host's
    const outputs = Object.entries((sessionHost.toJSON().Outputs ?? {}) as Record<string, { Value: unknown }>);
    const services = resourcesOf(sessionHost, 'AWS::ECS::Service').map(([id]) => id);
    const nameOutput = (serviceId: string) =>
      outputs.find(([, output]) => JSON.stringify(output.Value) === JSON.stringify({ 'Fn::GetAtt': [serviceId, 'Name'] }))![0];
    const taskAlarms = alarmsOn('ECS/ContainerInsights', 'RunningTaskCount');
    // Assess: one alarm per service, each on its own service
    expect(services).toHaveLength(2);
    expect(taskAlarms).toHaveLength(services.length);
    for (const serviceId of services) {
      const own = taskAlarms.filter((a) => JSON.stringify(a.Metrics).includes(`Outputs.${nameOutput(serviceId)}"`));
      expect(own, serviceId).toHaveLength(1);
      const metrics = own[0]!.Metrics as MetricStat[];
      expect(metrics.find((m) => m.Expression)?.Expression).toBe('desired - running');
      expect(
        metrics
          .map((m) => m.MetricStat?.Metric.MetricName)
          .filter(Boolean)
          .sort(),
      ).toEqual(['DesiredTaskCount', 'RunningTaskCount']);
      expect(own[0]).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 });
    }
  });

  it('session-host: alarms on sessions without an owner, a metric its task may publish', () => {
    // Prepare
    const onOrphans = alarmsOn(SESSION_HOST_METRICS.namespace, SESSION_HOST_METRICS.orphanSessions);
    const taskPolicies = props('AWS::IAM::Policy', sessionHost).filter(([, p]) =>
      (p.Roles as { Ref?: string }[]).some((r) => r.Ref?.startsWith('HostsTaskRole')),
    );
    const statements = taskPolicies.flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
    // Assess
    expect(onOrphans).toHaveLength(1);
    expect(onOrphans[0]).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0 });
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: 'cloudwatch:PutMetricData',
        Condition: { StringEquals: { 'cloudwatch:namespace': SESSION_HOST_METRICS.namespace } },
      }),
    );
  });

  it("the table: alarms when DynamoDB throttles the table's or an index's reads or writes for ten minutes", () => {
    const onThrottles = alarms().filter((a) => JSON.stringify(a.Metrics ?? []).includes('ThrottleEvents'));
    expect(onThrottles).toHaveLength(1);
    const alarm = onThrottles[0]!;
    const metrics = alarm.Metrics as MetricStat[];
    const stats = metrics.flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));
    const tableId = resourcesOf(template, 'AWS::DynamoDB::Table')[0]![0];
    const indexOf = (m: MetricStat['MetricStat'] & {}) =>
      m.Metric.Dimensions.find((d) => d.Name === 'GlobalSecondaryIndexName')?.Value as string | undefined;
    expect(stats.map((m) => `${m.MetricName} ${indexOf({ Metric: m }) ?? 'table'}`).sort()).toEqual(
      ['table', ...tableDeclaration.globalIndexes.map((index) => index.name)]
        .flatMap((part) => [`ReadThrottleEvents ${part}`, `WriteThrottleEvents ${part}`])
        .sort(),
    );
    for (const metric of stats) {
      expect(metric.Namespace).toBe('AWS/DynamoDB');
      expect(JSON.stringify(metric.Dimensions)).toContain(`{"Name":"TableName","Value":{"Ref":"${tableId}"}}`);
    }
    const sum = metrics.find((m) => m.Expression)!.Expression!;
    expect(sum.split(' + ')).toHaveLength(stats.length);
    expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0, EvaluationPeriods: 2 });
  });

  it('has nothing else: one per DLQ, one per Lambda, one on the lag of each stream consumer, one per session-host service, one on orphaned sessions and one on table throttles', () => {
    const services = resourcesOf(sessionHost, 'AWS::ECS::Service').length;
    const streamConsumers = 2 * tableStreamConsumers.length;
    expect(alarms()).toHaveLength(messageQueues.length + streamConsumers + lambdaEntries().length + services + 2);
  });
});

describe('dashboard', () => {
  it('one per region, named after the stack, graphs inbound rate, send failures, DLQ depth and sockets', () => {
    // Prepare
    const dashboards = watched('AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboards[0]![1].DashboardBody);
    const inboundId = props('AWS::SQS::Queue').find(([, p]) => p.QueueName === `${stackName}-inbound.fifo`)![0];
    const wsApiId = props('AWS::ApiGatewayV2::Api').find(([, p]) => p.ProtocolType === 'WEBSOCKET')![0];
    // Assess
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]![1].DashboardName).toBe(`${stackName}-overview`);
    for (const title of ['Inbound messages per minute', 'Send failures', 'Dead-letter queue depth', 'Sockets'])
      expect(body).toContain(title);
    expect(body).toMatch(
      new RegExp(`"AWS/SQS\\\\",\\\\"NumberOfMessagesSent\\\\",\\\\"QueueName\\\\",\\\\"",\\{"Fn::GetAtt":\\["${inboundId}"`),
    );
    expect(body).toContain(`${SESSION_HOST_METRICS.namespace}\\",\\"${SESSION_HOST_METRICS.sendFailures}`);
    expect(body).toContain('ApproximateNumberOfMessagesVisible');
    const tableId = resourcesOf(template, 'AWS::DynamoDB::Table')[0]![0];
    for (const metric of ['ConsumedWriteCapacityUnits', 'ConsumedReadCapacityUnits'])
      expect(body).toMatch(new RegExp(`"AWS/DynamoDB\\\\",\\\\"${metric}\\\\",\\\\"TableName\\\\",\\\\"",\\{"Ref":"${tableId}"`));
    expect(body).toContain('Table units a second');
    expect(body).toMatch(new RegExp(`"AWS/ApiGateway\\\\",\\\\"ConnectCount\\\\",\\\\"ApiId\\\\",\\\\"",\\{"Ref":"${wsApiId}"`));
  });
});

describe('in its own nested stack', () => {
  it('keeps the topic, the alarms and the dashboard out of the region template', () => {
    for (const type of ['AWS::SNS::Topic', 'AWS::SNS::Subscription', 'AWS::CloudWatch::Alarm', 'AWS::CloudWatch::Dashboard'])
      template.resourceCountIs(type, 0);
  });
});

describe('without `alarmEmail`', () => {
  it('alarms the topic but subscribes nobody', () => {
    const { monitoringTemplate: plain } = synthesize({ bundle: false });
    plain.resourceCountIs('AWS::SNS::Topic', 1);
    plain.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(resourcesOf(plain, 'AWS::CloudWatch::Alarm').length).toBe(alarms().length);
  });
});
