/**
 * Storage, queues, buckets, logs, the web hosting and the session-host service, plus cdk-nag:
 * synthesize() already throws on any unacknowledged AwsSolutions finding.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import { tableDeclaration } from '@conversa/functions/storage/table';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ConversaStack, functionConstructId } from '../lib/conversa-stack.ts';
import { queueUrlVariable } from '../lib/messaging.ts';
import { nestedTemplateOf, resourcesOf, synthesize } from './synth.ts';

let template: Template;
let sessionHost: Template;
let stack: ConversaStack;
let assembly: CloudAssembly;
beforeAll(() => {
  ({ template, stack, assembly, sessionHostTemplate: sessionHost } = synthesize());
});

type Json = Record<string, unknown>;
const props = (type: string, of = template) => resourcesOf(of, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const hostProps = (type: string) => props(type, sessionHost);

describe('table', () => {
  it('has the keys and GSIs of storage/table.ts, all projected', () => {
    const [[, table]] = props('AWS::DynamoDB::Table') as [[string, Json]];
    const key = (pk: string, sk: string) => [
      { AttributeName: pk, KeyType: 'HASH' },
      { AttributeName: sk, KeyType: 'RANGE' },
    ];
    expect(table.KeySchema).toEqual(key(tableDeclaration.partitionKey, tableDeclaration.sortKey));
    expect(table.GlobalSecondaryIndexes).toEqual(
      tableDeclaration.globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: key(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    expect(table).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: tableDeclaration.timeToLiveAttribute, Enabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('lets the inbound consumer update it through PartiQL (its batched link marks), beside UpdateItem', () => {
    const role = (props('AWS::IAM::Role').find(([id]) => id.startsWith(`${functionConstructId('inbound')}Role`)) ?? [''])[0];
    const statements = props('AWS::IAM::Policy')
      .filter(([, p]) => (p.Roles as { Ref?: string }[] | undefined)?.some((r) => r.Ref === role))
      .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement)
      .filter((s) => JSON.stringify(s.Resource).includes('DataTable'));
    const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]) as string[]);
    expect(role).not.toBe('');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:PartiQLUpdate']));
  });

  it('survives a stack delete', () => {
    const [, table] = resourcesOf(template, 'AWS::DynamoDB::Table')[0]!;
    expect(table.DeletionPolicy).toBe('Retain');
  });
});

describe('queues', () => {
  it.each(messageQueues.map((q) => [q.name, q]))('%s: encrypted, with its own DLQ after maxReceiveCount', (name, declaration) => {
    const suffix = declaration.fifo ? '.fifo' : '';
    const all = props('AWS::SQS::Queue');
    const [, queue] = all.find(([, p]) => p.QueueName === `${stack.stackName}-${name}${suffix}`)!;
    const [dlqId, dlq] = all.find(([, p]) => p.QueueName === `${stack.stackName}-${name}-dlq${suffix}`)!;
    expect(queue.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: declaration.maxReceiveCount,
    });
    expect(queue.VisibilityTimeout).toBe(declaration.visibilityTimeoutSeconds);
    for (const q of [queue, dlq]) {
      expect(q.SqsManagedSseEnabled).toBe(true);
      expect(Boolean(q.FifoQueue)).toBe(declaration.fifo);
    }
  });

  it('refuses plain HTTP on every queue', () => {
    const queueIds = resourcesOf(template, 'AWS::SQS::Queue').map(([id]) => id);
    const guarded = props('AWS::SQS::QueuePolicy')
      .filter(([, p]) => JSON.stringify(p.PolicyDocument).includes('"aws:SecureTransport":"false"'))
      .flatMap(([, p]) => (p.Queues as Json[]).map((q) => JSON.stringify(q)));
    for (const id of queueIds) expect(guarded.some((q) => q.includes(id))).toBe(true);
  });
});

describe('buckets', () => {
  it('block all public access, encrypt and refuse plain HTTP', () => {
    const buckets = props('AWS::S3::Bucket');
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    const tlsOnly = props('AWS::S3::BucketPolicy')
      .filter(([, p]) => JSON.stringify(p.PolicyDocument).includes('"aws:SecureTransport":"false"'))
      .map(([, p]) => JSON.stringify(p.Bucket));
    for (const [id, bucket] of buckets) {
      expect(bucket.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(bucket.BucketEncryption).toBeDefined();
      expect(tlsOnly.some((ref) => ref.includes(id))).toBe(true);
    }
  });

  it('lets only the web origin PUT to the media bucket, and logs its access', () => {
    const [[, media]] = props('AWS::S3::Bucket').filter(([id]) => id.startsWith('MediaBucket')) as [[string, Json]];
    const [rule] = (media.CorsConfiguration as { CorsRules: Json[] }).CorsRules;
    expect(rule!.AllowedMethods).toContain('PUT');
    expect(JSON.stringify(rule!.AllowedOrigins)).toContain('WebDistribution');
    expect(media.LoggingConfiguration).toBeDefined();
  });
});

describe('logs', () => {
  it('every log group has a retention', () => {
    const groups = props('AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThan(0);
    for (const [, group] of groups) expect(group.RetentionInDays).toEqual(expect.any(Number));
  });

  it('every Lambda writes to a declared log group (none created implicitly without retention)', () => {
    for (const [, fn] of props('AWS::Lambda::Function')) expect((fn.LoggingConfig as Json | undefined)?.LogGroup).toBeDefined();
  });
});

describe('web hosting', () => {
  it('serves the SPA through CloudFront with OAC, index.html fallbacks and HTTPS', () => {
    const [[, distribution]] = props('AWS::CloudFront::Distribution') as [[string, Json]];
    const config = distribution.DistributionConfig as Json;
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ErrorCode: 403, ResponseCode: 200, ResponsePagePath: '/index.html' }),
        expect.objectContaining({ ErrorCode: 404, ResponseCode: 200, ResponsePagePath: '/index.html' }),
      ]),
    );
    expect((config.DefaultCacheBehavior as Json).ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(JSON.stringify(config.Origins)).toContain('OriginAccessControlId');
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
  });

  it('deploys config.json beside the build, pointing at this stack', () => {
    const [, deployment] = resourcesOf(template, 'Custom::CDKBucketDeployment')[0]!;
    const text = JSON.stringify(deployment.Properties);
    expect(text).toContain('WebBucket');
    // Source.jsonData carries the unresolved values as markers: the API, the socket and the pool.
    for (const part of ['HttpApi', 'RealtimeApi', 'IdentityUserPool', 'IdentityUserPoolWebClient']) expect(text).toContain(part);
  });
});

describe('session host', () => {
  it('runs one arm64 task per egress address with circuit breaker, container insights and the queue/table/bucket environment', () => {
    const services = hostProps('AWS::ECS::Service');
    expect(services).toHaveLength(2);
    for (const [, service] of services)
      expect(service).toMatchObject({
        DesiredCount: 1,
        LaunchType: 'FARGATE',
        DeploymentConfiguration: { DeploymentCircuitBreaker: { Enable: true, Rollback: true } },
      });
    sessionHost.resourceCountIs('AWS::ECS::Cluster', 1);
    sessionHost.hasResourceProperties('AWS::ECS::Cluster', { ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }] });
    for (const [, task] of hostProps('AWS::ECS::TaskDefinition')) {
      expect(task.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
      const [container] = task.ContainerDefinitions as Json[];
      const names = (container!.Environment as { Name: string; Value: unknown }[]).map((e) => e.Name);
      expect(names).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'MEDIA_BUCKET', 'SESSION_PROVIDER', ...messageQueues.map((q) => queueUrlVariable(q.name))]),
      );
      expect((container!.Environment as { Name: string; Value: unknown }[]).find((e) => e.Name === 'SESSION_PROVIDER')?.Value).toBe(
        'baileys',
      );
      expect((container!.LogConfiguration as Json).LogDriver).toBe('awslogs');
    }
  });

  it("grants the task what the host calls: the table, the media bucket, both queues' sends, the commands' visibility, the @connections API", () => {
    // Prepare: every action the task role's policies allow, by the resource they name
    const policies = hostProps('AWS::IAM::Policy').filter(([, p]) =>
      (p.Roles as { Ref?: string }[] | undefined)?.some((r) => r.Ref?.startsWith('HostsTaskRole')),
    );
    const statements = policies.flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
    const actions = (resourcePrefix: string) =>
      statements
        .filter((s) => JSON.stringify(s.Resource).includes(resourcePrefix))
        .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]) as string[]);
    const tasks = hostProps('AWS::ECS::TaskDefinition');
    const names = tasks.map(([, task]) => ((task.ContainerDefinitions as Json[])[0]!.Environment as { Name: string }[]).map((e) => e.Name));
    // Assess: every host's, and the role is the one the task definitions name
    expect(policies.length).toBeGreaterThan(0);
    for (const each of names) expect(each).toContain('WS_MANAGEMENT_URL');
    for (const [, task] of tasks) expect(JSON.stringify(task.TaskRoleArn)).toContain('HostsTaskRole');
    expect(actions('Queuessessioncommands')).toEqual(
      expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage']),
    );
    expect(actions('Queuesinbound')).toContain('sqs:SendMessage');
    expect(actions('DataTable')).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query']));
    expect(actions('MediaBucket')).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
    expect(actions('@connections')).toContain('execute-api:ManageConnections');
  });

  it('stages an image context with the Dockerfile and the workspace sources, without node_modules', () => {
    // Prepare: the image asset's staged directory in the cloud assembly
    const manifest = JSON.parse(readFileSync(join(assembly.directory, `${stack.stackName}.assets.json`), 'utf8'));
    const images = Object.values(manifest.dockerImages) as { source: { directory: string; dockerFile: string } }[];
    expect(images).toHaveLength(1);
    const context = join(assembly.directory, images[0]!.source.directory);
    expect(images[0]!.source.dockerFile).toBe('session-host/Dockerfile');
    const top = readdirSync(context).sort();
    // Assess
    expect(existsSync(join(context, 'session-host/Dockerfile'))).toBe(true);
    expect(existsSync(join(context, 'functions/src/routes.ts'))).toBe(true);
    expect(existsSync(join(context, 'package-lock.json'))).toBe(true);
    expect(top).not.toContain('node_modules');
    expect(top).not.toContain('cdk.out');
    expect(existsSync(join(context, 'web/src'))).toBe(false);
  });

  it('lives in a new VPC over two AZs with two egress addresses by default, out of the region template', () => {
    sessionHost.resourceCountIs('AWS::EC2::NatGateway', 2);
    sessionHost.resourceCountIs('AWS::EC2::EIP', 2);
    // Two public subnets (the NAT gateways') and a private one per egress address.
    sessionHost.resourceCountIs('AWS::EC2::Subnet', 4);
    for (const type of ['AWS::EC2::VPC', 'AWS::EC2::NatGateway', 'AWS::ECS::Service']) template.resourceCountIs(type, 0);
  });
});

describe('cdk-nag', () => {
  /** Every acknowledgment recorded in the tree, as [construct path, rule id, reason]. */
  function acknowledgments(root: IConstruct): [string, string, string][] {
    return root.node
      .findAll()
      .flatMap((c) =>
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) =>
            Object.entries(m.data as Record<string, string>).map(
              ([rule, reason]) => [c.node.path, rule, reason] as [string, string, string],
            ),
          ),
      );
  }

  it('passes AwsSolutions with every acknowledgment naming its rule and a specific reason', () => {
    // synthesize() threw otherwise; here: the reasons are real sentences, not placeholders.
    // Only ours: CDK records its own (CloudFormation-Validate::...) acknowledgments too.
    // CDK stores an unqualified id as `Annotation::<id>`, which is what cdk-nag matches.
    const found = acknowledgments(stack)
      .map(([path, rule, reason]) => [path, rule.replace(/^annotation::/i, ''), reason] as const)
      .filter(([, rule]) => rule.startsWith('AwsSolutions-'));
    expect(found.length).toBeGreaterThan(0);
    for (const [path, rule, reason] of found) {
      expect(rule, path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(reason.length, `${path} ${rule}`).toBeGreaterThanOrEqual(40);
    }
  });

  it('would fail the synth on an unacknowledged finding (the check is really on)', () => {
    // Prepare: a bucket without access logs, which AwsSolutions-S1 flags
    const app = new App();
    new Bucket(new Stack(app, 'Probe'), 'Unlogged', { enforceSSL: true });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // Act + Assess
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });
});

describe('table with provisioned capacity (context tableCapacity=provisioned)', () => {
  // One synth of an operator's choices (each synth costs seconds): the capacity, and the shared counter.
  const provisioned = () =>
    synthesize({
      bundle: false,
      context: { tableCapacity: 'provisioned', tableWriteCapacity: '10-3000', tableTargetUtilization: '65', conversationCounter: 'shared' },
    });

  it('provisions the table and each index at the floor of their ranges', () => {
    const [[, table]] = props('AWS::DynamoDB::Table', provisioned().template) as [[string, Json]];
    // CDK leaves BillingMode out for provisioned, CloudFormation's default.
    expect(table.BillingMode ?? 'PROVISIONED').toBe('PROVISIONED');
    expect(table.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 10 });
    for (const index of table.GlobalSecondaryIndexes as Json[])
      expect(index.ProvisionedThroughput).toEqual({ ReadCapacityUnits: 5, WriteCapacityUnits: 10 });
  });

  it('scales the reads and writes of the table and of every index, each on its own utilisation, in a nested stack', () => {
    const { template: parent, assembly, stack } = provisioned();
    expect(resourcesOf(parent, 'AWS::ApplicationAutoScaling::ScalableTarget')).toHaveLength(0);
    const scaling = Template.fromJSON(
      nestedTemplateOf(assembly.getStackByName(stack.stackName).template, assembly, stack.tableCapacityStack!),
    );
    const tableRef = { Ref: resourcesOf(parent, 'AWS::DynamoDB::Table')[0]![0] };
    const targets = props('AWS::ApplicationAutoScaling::ScalableTarget', scaling).map(([, p]) => p);
    const expected = ['table', ...tableDeclaration.globalIndexes.map((index) => index.name)].flatMap((part) =>
      ['Write', 'Read'].map((unit) => ({
        ServiceNamespace: 'dynamodb',
        ResourceId:
          part === 'table' ? { 'Fn::Join': ['', ['table/', tableRef]] } : { 'Fn::Join': ['', ['table/', tableRef, `/index/${part}`]] },
        ScalableDimension: `dynamodb:${part === 'table' ? 'table' : 'index'}:${unit}CapacityUnits`,
        MinCapacity: unit === 'Write' ? 10 : 5,
        MaxCapacity: unit === 'Write' ? 3000 : 4000,
      })),
    );
    expect(targets).toEqual(expect.arrayContaining(expected.map((target) => expect.objectContaining(target))));
    expect(targets).toHaveLength(expected.length);
    const policies = props('AWS::ApplicationAutoScaling::ScalingPolicy', scaling).map(([, p]) => p);
    expect(policies).toHaveLength(expected.length);
    for (const policy of policies)
      expect(policy).toMatchObject({
        PolicyType: 'TargetTrackingScaling',
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: 65,
          PredefinedMetricSpecification: { PredefinedMetricType: expect.stringMatching(/^DynamoDB(Read|Write)CapacityUtilization$/) },
        },
      });
  });

  it('gives every function the shared conversation counter once chosen (context conversationCounter), and none by default', () => {
    // Every function of ours (each has the table's name; CDK's own helpers have neither) but the
    // table stream's consumers, which create no conversation and are given the table alone.
    const streamConsumers = tableStreamConsumers.map((consumer) => functionConstructId(consumer.name));
    const counterOf = (template: Template) =>
      props('AWS::Lambda::Function', template)
        .filter(([id]) => !streamConsumers.some((prefix) => id.startsWith(prefix)))
        .map(([, p]) => (p.Environment as { Variables?: Json } | undefined)?.Variables)
        .filter((variables) => variables?.TABLE_NAME)
        .map((variables) => variables?.CONVERSATION_COUNTER);
    const chosen = counterOf(provisioned().template);
    expect(chosen.length).toBeGreaterThan(10);
    expect(new Set(chosen)).toEqual(new Set(['shared']));
    expect(new Set(counterOf(synthesize({ bundle: false }).template))).toEqual(new Set([undefined]));
  });

  it('stays on demand, without scaling, unless chosen', () => {
    const { template: plain, stack } = synthesize({ bundle: false });
    expect(props('AWS::DynamoDB::Table', plain)[0]![1].BillingMode).toBe('PAY_PER_REQUEST');
    expect(stack.tableCapacityStack).toBeUndefined();
  });
});
