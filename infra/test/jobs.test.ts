/**
 * Scheduled jobs: every declaration of functions/src/declarations/jobs.ts is an EventBridge rate rule that
 * invokes its own Lambda (allowed by a resource policy), with the declared timeout and no async
 * retries; the ticket sweeps may send `send` commands to the session-host.
 */
import { jobs } from '@conversa/functions/declarations/jobs';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { logicalIdOf, resourcesOf, synthesize } from './synth.ts';

let template: Template;
beforeAll(() => {
  ({ template } = synthesize({ bundle: false }));
});

type Json = Record<string, unknown>;
const props = (type: string) => resourcesOf(template, type).map(([id, r]) => [id, r.Properties ?? {}] as [string, Json]);
const functionId = (name: string) => logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
/** The expression CDK writes for Duration.minutes(n): whole hours as hours, whole days as days. */
const rate = (minutes: number) => {
  const [n, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `rate(${n} ${n === 1 ? unit : `${unit}s`})`;
};

describe('scheduled jobs', () => {
  it.each(jobs.map((s) => [s.name, s] as const))('%s: a rate rule targets its Lambda, which may be invoked by it', (name, declaration) => {
    // Prepare
    const fn = functionId(name);
    const rules = props('AWS::Events::Rule').filter(([, p]) => JSON.stringify(p.Targets).includes(fn));
    // Assess
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(rule).toMatchObject({ ScheduleExpression: rate(declaration.rateMinutes), State: 'ENABLED' });
    const permission = props('AWS::Lambda::Permission').find(
      ([, p]) => p.Principal === 'events.amazonaws.com' && JSON.stringify(p.SourceArn).includes(ruleId),
    );
    expect(JSON.stringify(permission?.[1].FunctionName)).toContain(fn);
    expect(template.toJSON().Resources[fn].Properties.Timeout).toBe(declaration.timeoutSeconds);
    const invokeConfig = props('AWS::Lambda::EventInvokeConfig').find(([, p]) => JSON.stringify(p.FunctionName).includes(fn));
    expect(invokeConfig?.[1].MaximumRetryAttempts).toBe(0);
  });

  it.each([
    ['ticket-sweeps', 'the expiry message'],
    ['schedule-sends', 'the scheduled messages'],
  ])(
    '%s may send to session-commands (%s) and, as every publisher, the realtime fan-out and the webhook deliveries; nothing else',
    (name) => {
      // Prepare
      const role = logicalIdOf(template, 'AWS::IAM::Role', `${functionConstructId(name)}Role`);
      const statements = props('AWS::IAM::Policy')
        .filter(([, p]) => (p.Roles as Json[]).some((r) => r.Ref === role))
        .flatMap(([, p]) => (p.PolicyDocument as { Statement: Json[] }).Statement);
      const sqsSends = statements.filter((s) => [s.Action].flat().some((a) => String(a).startsWith('sqs:SendMessage')));
      // Assess
      expect(sqsSends).toHaveLength(3);
      expect(
        sqsSends
          .map((s) => JSON.stringify(s.Resource).match(/Queues(sessioncommands|realtimefanout|webhookdeliveries)[A-Z0-9]/)?.[1])
          .sort(),
      ).toEqual(['realtimefanout', 'sessioncommands', 'webhookdeliveries']);
    },
  );
});
