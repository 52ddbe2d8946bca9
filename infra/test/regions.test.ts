/**
 * Every region synthesizes from the same code, and nothing of one region's stack names another's:
 * no region string, no stack name, no physical name. A name without the stack's own in it would be
 * the same in every region, which for global resources (roles, buckets, dashboards) is a collision.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Synthesized, synthesize, type TemplateJson, templatesIn } from './synth.ts';

const REGIONS = ['eu-west-1', 'sa-east-1'] as const;

/** The property that names a resource, for every type that takes one; set or generated, it must be the region's own. */
const PHYSICAL_NAME: Record<string, string> = {
  'AWS::ApiGatewayV2::Api': 'Name',
  'AWS::CloudWatch::Alarm': 'AlarmName',
  'AWS::CloudWatch::Dashboard': 'DashboardName',
  'AWS::Cognito::UserPool': 'UserPoolName',
  'AWS::DynamoDB::Table': 'TableName',
  'AWS::ECS::Cluster': 'ClusterName',
  'AWS::ECS::Service': 'ServiceName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::Lambda::Function': 'FunctionName',
  'AWS::Logs::LogGroup': 'LogGroupName',
  'AWS::S3::Bucket': 'BucketName',
  'AWS::SNS::Topic': 'TopicName',
  'AWS::SQS::Queue': 'QueueName',
};

interface Region {
  name: string;
  synthesized: Synthesized;
  templates: TemplateJson[];
  text: string;
}

const regions: Region[] = [];
beforeAll(() => {
  for (const name of REGIONS) {
    const synthesized = synthesize({ bundle: false, region: name });
    const templates = Object.values(templatesIn(synthesized));
    regions.push({ name, synthesized, templates, text: JSON.stringify(templates) });
  }
});

/** Literal physical names a region's templates set (generated names are absent, hence unique). */
const physicalNames = (region: Region): string[] =>
  region.templates.flatMap((t) =>
    Object.values(t.Resources)
      .map((r) => (PHYSICAL_NAME[r.Type] ? r.Properties?.[PHYSICAL_NAME[r.Type]!] : undefined))
      .filter((name): name is string => typeof name === 'string'),
  );

/** Resource types and how many of each, over the stack and its nested stacks. */
const shape = (region: Region): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const t of region.templates) for (const r of Object.values(t.Resources)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
  return counts;
};

describe('two regions from the same code', () => {
  it('each is its own stack, with the same resources', () => {
    const [first, second] = regions as [Region, Region];
    expect(first.synthesized.stack.stackName).toBe('Conversa-eu-west-1');
    expect(second.synthesized.stack.stackName).toBe('Conversa-sa-east-1');
    // The region's stack, its HTTP routes', its monitoring's and its session-host's nested stacks.
    expect(first.templates).toHaveLength(4);
    expect(shape(second)).toEqual(shape(first));
  });

  it.each([
    [0, 1],
    [1, 0],
  ])('region %i names nothing of region %i: no region, no stack name, no physical name', (own, other) => {
    // Prepare
    const region = regions[own]!;
    const foreign = regions[other]!;
    const foreignStack = foreign.synthesized.stack.stackName;
    const names = physicalNames(region);
    // Assess: the other's region appears nowhere (ARNs, endpoints, asset buckets), nor its stack name
    expect(region.text).toContain(region.name);
    expect(region.text).not.toContain(foreign.name);
    expect(region.text).not.toContain(foreignStack);
    expect(region.text).not.toContain(foreignStack.replace(/-/g, ''));
    // Assess: every name this region sets carries its own stack name, so none can be the other's
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toContain(region.synthesized.stack.stackName);
    for (const name of physicalNames(foreign)) expect(region.text).not.toContain(name);
  });
});
