/**
 * Webhook deliveries in the stack (issue 23 §2): a FIFO queue of attempts with its FIFO DLQ and a
 * Lambda consumer reporting partial failures, a standard retries queue (DelaySeconds) with its own
 * consumer and DLQ; the delivery consumer may open the secrets key, park retries and set aside what
 * it gives up on in the DLQ (its URL in its environment), and every Lambda that changes the inbox may
 * queue a delivery. The visibility timeout covers six times the consumer's timeout.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionConstructId } from '../lib/conversa-stack.ts';
import { logicalIdOf, resourcesOf, type Synthesized, synthesize } from './synth.ts';

type Json = Record<string, unknown>;
let synthesized: Synthesized;
let template: Template;

beforeAll(() => {
  synthesized = synthesize({ bundle: false });
  template = synthesized.template;
});

/** The queue whose name ends with `suffix`: its logical id and properties. */
function queueNamed(suffix: string): [string, Json] {
  const found = resourcesOf(template, 'AWS::SQS::Queue').find(([, r]) =>
    JSON.stringify((r.Properties as Json).QueueName ?? '').endsWith(`${suffix}"`),
  );
  if (!found) throw new Error(`no queue named *${suffix}`);
  return [found[0], (found[1].Properties ?? {}) as Json];
}
const policiesOf = (name: string) => {
  const fn = synthesized.stack.functions.get(name);
  const roleId = synthesized.stack.getLogicalId(fn?.role?.node.defaultChild as never);
  return JSON.stringify(
    (Object.values(template.findResources('AWS::IAM::Policy')) as Json[])
      .filter((p) => JSON.stringify((p.Properties as Json).Roles).includes(roleId))
      .map((p) => (p.Properties as Json).PolicyDocument),
  );
};
const envOf = (name: string) => {
  const id = logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId(name));
  return ((template.toJSON().Resources[id].Properties as Json).Environment as { Variables: Json }).Variables;
};

describe('webhook deliveries', () => {
  it('are a FIFO queue with a FIFO DLQ, consumed by their Lambda with partial batch failures', () => {
    const queue = queueNamed('-webhook-deliveries.fifo');
    const dlq = queueNamed('-webhook-deliveries-dlq.fifo');
    expect(queue[1]).toMatchObject({ FifoQueue: true, VisibilityTimeout: 900 });
    expect(dlq[1]).toMatchObject({ FifoQueue: true });
    expect(JSON.stringify(queue[1].RedrivePolicy)).toContain(dlq[0]);
    const consumer = logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId('webhook-deliveries'));
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [queue[0], 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect((template.toJSON().Resources[consumer].Properties as Json).Timeout).toBe(150);
  });

  it('park their retries on a standard queue with its own consumer and DLQ', () => {
    const retries = queueNamed('-webhook-retries');
    expect(retries[1].FifoQueue).toBeUndefined();
    expect(JSON.stringify(retries[1].RedrivePolicy)).toContain('webhookretriesdlq');
    const consumer = logicalIdOf(template, 'AWS::Lambda::Function', functionConstructId('webhook-retries'));
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [retries[0], 'Arn'] },
    });
  });

  it('give the delivery consumer the secrets key, the retries queue and its DLQ, and nothing of the session-host', () => {
    const policies = policiesOf('webhook-deliveries');
    expect(policies).toContain('secretsmanager:GetSecretValue');
    expect(policies).toContain(queueNamed('-webhook-retries')[0]);
    expect(policies).toContain(queueNamed('-webhook-deliveries-dlq.fifo')[0]);
    expect(policies).not.toContain(queueNamed('-session-commands.fifo')[0]);
    expect(envOf('webhook-deliveries').QUEUE_URL_WEBHOOK_DELIVERIES_DLQ).toEqual({ Ref: queueNamed('-webhook-deliveries-dlq.fifo')[0] });
  });

  it('may be queued by every Lambda that changes the inbox, and by the webhooks routes (test, resend)', () => {
    const queueId = queueNamed('-webhook-deliveries.fifo')[0];
    for (const name of [
      'webhooks',
      'inbound',
      'messages',
      'tickets',
      'contacts',
      'external-api',
      'bot-turns',
      'ticket-sweeps',
      'webhook-retries',
    ]) {
      expect(policiesOf(name), name).toContain(queueId);
    }
    expect(policiesOf('webhooks')).toContain('secretsmanager:GetSecretValue');
  });

  it('stay within the template checks (Template parses)', () => {
    expect(() => Template.fromJSON(template.toJSON())).not.toThrow();
  });
});
