import { type TableStreamConsumerDeclaration, tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge, policyOwnerOf } from './nag.ts';

export interface DeclaredStreamConsumer {
  declaration: TableStreamConsumerDeclaration;
  /** Where the records of a batch go once its last try failed (the mapping's on-failure destination). */
  deadLetterQueue: Queue;
}

/**
 * The consumers of the table's stream (declarations/table-streams.ts), each with its own DLQ. A
 * consumer's Lambda is mapped to the stream from the oldest record it still holds, with the
 * declaration's filters, batch and retries; a failing batch is tried again halved (bisect), so the
 * record that fails ends up alone, and what still fails after the last try, or is older than the
 * declared age, is described in the DLQ (shard and sequence numbers, not the records: a stream keeps
 * them 24 hours) and alarms (monitoring.ts).
 */
export class TableStreams extends Construct {
  readonly consumers: readonly DeclaredStreamConsumer[];

  constructor(
    scope: Construct,
    id: string,
    private readonly table: ITable,
  ) {
    super(scope, id);
    const prefix = Stack.of(this).stackName;
    this.consumers = tableStreamConsumers.map((declaration) => {
      const deadLetterQueue = new Queue(this, `${declaration.name}-dlq`, {
        queueName: `${prefix}-${declaration.name}-stream-dlq`,
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // Time to notice and replay the failed records' keys (the messages stay in the table).
        retentionPeriod: Duration.days(14),
      });
      acknowledge(
        deadLetterQueue,
        'SQS3',
        `The on-failure destination of the ${declaration.name} stream mapping: a dead-letter queue that cdk-nag recognises only in an SQS redrive policy.`,
      );
      return { declaration, deadLetterQueue };
    });
  }

  get(name: string): DeclaredStreamConsumer {
    const found = this.consumers.find((c) => c.declaration.name === name);
    if (!found) throw new Error(`Stream consumer ${name} is not declared in functions/src/declarations/table-streams.ts`);
    return found;
  }

  /**
   * The consumer reads the stream (the event source grants it) and sends its failed batches to its
   * DLQ. No partial batch failures: the handler throws for the whole batch, and bisecting finds the
   * record that fails (its writes are the same on a retry).
   */
  attachConsumer(fn: IFunction, name: string): void {
    const { declaration, deadLetterQueue } = this.get(name);
    fn.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: declaration.batchSize,
        maxBatchingWindow: Duration.seconds(declaration.maxBatchingWindowSeconds),
        bisectBatchOnError: true,
        retryAttempts: declaration.retryAttempts,
        maxRecordAge: Duration.seconds(declaration.maxRecordAgeSeconds),
        filters: declaration.filters.map((pattern) => FilterCriteria.filter(pattern)),
        reportBatchItemFailures: false,
        onFailure: new SqsDlq(deadLetterQueue),
      }),
    );
    acknowledge(
      policyOwnerOf(fn),
      'IAM5[Resource::*]',
      'dynamodb:ListStreams (the event source mapping finds the stream with it) has no resource-level permissions; the records are read from the stream ARN of this table only.',
    );
  }
}
