/**
 * The table's stream and its consumers (functions/src/declarations/table-streams.ts, issue 24): the
 * table streams both images of each write, still protected from deletes; each consumer's Lambda is
 * mapped to the stream with the declaration's filters, batch and retries, bisecting a failing batch
 * and sending what still fails to its own encrypted, TLS-only DLQ; it may read the stream and send
 * to that DLQ.
 */
import { TABLE_STREAM_VIEW, tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { logicalIdOf, resourcesOf, synthesize } from './synth.ts';

let template: Template;
let stackName: string;
beforeAll(() => {
  let stack: { stackName: string };
  ({ template, stack } = synthesize({ bundle: false }));
  stackName = stack.stackName;
});

type Json = Record<string, unknown>;
const props = (type: string) => resourcesOf(template, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const functionId = (name: string) => logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
const tableId = () => resourcesOf(template, 'AWS::DynamoDB::Table')[0]![0];
const deadLetterQueueOf = (name: string) => props('AWS::SQS::Queue').find(([, p]) => p.QueueName === `${stackName}-${name}-stream-dlq`);
const mappingOf = (name: string) =>
  props('AWS::Lambda::EventSourceMapping').filter(([, p]) => JSON.stringify(p.FunctionName) === JSON.stringify({ Ref: functionId(name) }));

describe('table stream', () => {
  it('streams the new and old images of every write, the view the consumers are written for', () => {
    const [[, table]] = props('AWS::DynamoDB::Table') as [[string, Json]];
    expect(TABLE_STREAM_VIEW).toBe('NEW_AND_OLD_IMAGES');
    expect(table.StreamSpecification).toEqual({ StreamViewType: TABLE_STREAM_VIEW });
  });

  it('leaves the table protected: deletion protection on, retained on a stack delete or a replace', () => {
    const table = template.toJSON().Resources[tableId()];
    expect(table.Properties).toMatchObject({ DeletionProtectionEnabled: true });
    expect(table).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('is read by the declared consumers only, besides the queues', () => {
    const fromStream = props('AWS::Lambda::EventSourceMapping').filter(
      ([, p]) => JSON.stringify(p.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [tableId(), 'StreamArn'] }),
    );
    expect(fromStream.map(([, p]) => p.FunctionName)).toEqual(tableStreamConsumers.map((c) => ({ Ref: functionId(c.name) })));
  });
});

describe.each(tableStreamConsumers.map((c) => [c.name, c] as const))('stream consumer %s', (name, declaration) => {
  it('is mapped to the stream from its oldest record, with the declared batch, retries (bisected) and age', () => {
    // Prepare
    const mappings = mappingOf(name);
    // Assess
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0]!;
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId(), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: declaration.batchSize,
      MaximumBatchingWindowInSeconds: declaration.maxBatchingWindowSeconds,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: declaration.retryAttempts,
      MaximumRecordAgeInSeconds: declaration.maxRecordAgeSeconds,
    });
    // The handler throws for the whole batch: no partial batch responses.
    expect(mapping.FunctionResponseTypes).toBeUndefined();
  });

  it("is handed only the records its filters match, each filter the declaration's pattern as JSON", () => {
    // Prepare
    const [, mapping] = mappingOf(name)[0]!;
    const filters = (mapping.FilterCriteria as { Filters: Json[] }).Filters;
    // Assess: exactly {"Pattern": "<JSON>"} per filter, the same patterns in the same order
    for (const filter of filters) expect(Object.keys(filter)).toEqual(['Pattern']);
    expect(filters.map((filter) => JSON.parse(filter.Pattern as string))).toEqual(declaration.filters);
  });

  it('sends a batch it gave up on to its own DLQ: encrypted, TLS only, kept 14 days', () => {
    // Prepare
    const [, mapping] = mappingOf(name)[0]!;
    const found = deadLetterQueueOf(name);
    const guarded = props('AWS::SQS::QueuePolicy')
      .filter(([, p]) => JSON.stringify(p.PolicyDocument).includes('"aws:SecureTransport":"false"'))
      .flatMap(([, p]) => p.Queues as Json[]);
    // Assess
    expect(found).toBeDefined();
    const [dlqId, dlq] = found!;
    expect(mapping.DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [dlqId, 'Arn'] } } });
    expect(dlq).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 60 * 60 });
    expect(dlq.FifoQueue).toBeUndefined();
    expect(guarded).toContainEqual({ Ref: dlqId });
  });

  it('runs on the same Lambda as every other, may read the stream and send to its DLQ, and has the table', () => {
    // Prepare
    const fn = template.toJSON().Resources[functionId(name)].Properties;
    const role = logicalIdOf(template, 'AWS::IAM::Role', `${functionConstructId(name)}Role`);
    const statements = props('AWS::IAM::Policy')
      .filter(([, p]) => (p.Roles as Json[]).some((r) => r.Ref === role))
      .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
    const actionsOn = (resource: unknown) =>
      statements
        .filter((s) => [s.Resource].flat().some((r) => JSON.stringify(r) === JSON.stringify(resource)))
        .flatMap((s) => [s.Action].flat());
    const [dlqId] = deadLetterQueueOf(name)!;
    // Assess
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 512, Handler: 'index.handler' });
    expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId() });
    expect(actionsOn({ 'Fn::GetAtt': [tableId(), 'StreamArn'] })).toEqual(
      expect.arrayContaining(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']),
    );
    // ListStreams has no resource-level permissions (acknowledged in table-streams.ts).
    expect(actionsOn('*')).toEqual(['dynamodb:ListStreams']);
    expect(actionsOn({ 'Fn::GetAtt': [dlqId, 'Arn'] })).toContain('sqs:SendMessage');
    expect(actionsOn({ 'Fn::GetAtt': [tableId(), 'Arn'] })).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem', 'dynamodb:Query']));
  });

  it('is given nothing else: no queue, user pool, socket API or bucket, in its grants or its environment', () => {
    // Prepare
    const fn = template.toJSON().Resources[functionId(name)].Properties;
    const role = logicalIdOf(template, 'AWS::IAM::Role', `${functionConstructId(name)}Role`);
    const resources = props('AWS::IAM::Policy')
      .filter(([, p]) => (p.Roles as Json[]).some((r) => r.Ref === role))
      .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement)
      .flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r)));
    const [dlqId] = deadLetterQueueOf(name)!;
    const logs = logicalIdOf(template, 'AWS::Logs::LogGroup', `${functionConstructId(name)}Logs`);
    const own = [tableId(), dlqId, logs];
    // Assess: every resource a statement names is the table (its indexes, its stream), the DLQ or its
    // own log group, or ListStreams' '*'.
    const others = resources.filter((r) => r !== '"*"' && !own.some((id) => r.includes(`"${id}"`)));
    expect(others).toEqual([]);
    expect(Object.keys(fn.Environment.Variables).sort()).toEqual(['POWERTOOLS_SERVICE_NAME', 'SERVER_VERSION', 'TABLE_NAME']);
  });
});
