import { type MessageQueueDeclaration, messageQueues } from '@conversa/functions/declarations/message-queues';
import { Duration, Stack } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EnvironmentTarget } from './data-table.ts';

/** The env var a handler reads a queue's URL from; mirrors `env.queueUrl` in functions/src/commons/env.ts. */
export const queueUrlVariable = (name: string): string => `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`;

export interface DeclaredQueue {
  declaration: MessageQueueDeclaration;
  queue: Queue;
  deadLetterQueue: Queue;
}

/** Every queue of queues.ts, each with its own dead-letter queue. */
export class Messaging extends Construct {
  readonly queues: readonly DeclaredQueue[];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const prefix = Stack.of(this).stackName;
    this.queues = messageQueues.map((declaration) => {
      // FIFO queues need a FIFO DLQ, and both names must end in .fifo.
      const name = (suffix: string) => `${prefix}-${declaration.name}${suffix}${declaration.fifo ? '.fifo' : ''}`;
      const common = {
        fifo: declaration.fifo || undefined,
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      };
      const deadLetterQueue = new Queue(this, `${declaration.name}-dlq`, {
        ...common,
        queueName: name('-dlq'),
        // Time to notice and redrive a poisoned message.
        retentionPeriod: Duration.days(14),
      });
      const queue = new Queue(this, declaration.name, {
        ...common,
        queueName: name(''),
        visibilityTimeout: Duration.seconds(declaration.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: declaration.maxReceiveCount },
      });
      return { declaration, queue, deadLetterQueue };
    });
  }

  get(name: string): DeclaredQueue {
    const found = this.queues.find((q) => q.declaration.name === name);
    if (!found) throw new Error(`Queue ${name} is not declared in functions/src/declarations/message-queues.ts`);
    return found;
  }

  /** QUEUE_URL_<NAME> for every queue: URLs are not secrets and any code may need to address one. */
  bind(target: EnvironmentTarget): void {
    for (const { declaration, queue } of this.queues) target.addEnvironment(queueUrlVariable(declaration.name), queue.queueUrl);
  }

  grantSend(grantee: IGrantable, name: string): void {
    this.get(name).queue.grantSendMessages(grantee);
  }

  /** QUEUE_URL_<NAME>_DLQ and send on that DLQ: for a consumer that sets aside what it gives up on itself. */
  bindDeadLetter(fn: EnvironmentTarget & IGrantable, name: string): void {
    const { deadLetterQueue } = this.get(name);
    fn.addEnvironment(queueUrlVariable(`${name}-dlq`), deadLetterQueue.queueUrl);
    deadLetterQueue.grantSendMessages(fn);
  }

  grantConsume(grantee: IGrantable, name: string): void {
    this.get(name).queue.grantConsumeMessages(grantee);
  }

  /** Lambda consumers report partial batch failures so one bad message never replays its whole batch. */
  attachConsumer(fn: IFunction, name: string): void {
    const { declaration, queue } = this.get(name);
    fn.addEventSource(new SqsEventSource(queue, { batchSize: declaration.batchSize ?? 10, reportBatchItemFailures: true }));
  }
}
