/**
 * SQS sends, with the client created and its SDK loaded on first use (see dynamodb.ts for why one
 * module per client). The SDK is a dynamic import, so it sits in a chunk of its own that a cold start
 * does not load: most requests of the Lambdas that can send (sign-in, user and company edits, every
 * publish that may fan out) never do, and it was ~25 KB of their 500 KB budget.
 */
import type {
  DeleteMessageBatchCommandInput,
  DeleteMessageBatchCommandOutput,
  SendMessageBatchCommandInput,
  SendMessageBatchCommandOutput,
  SendMessageCommandInput,
  SendMessageCommandOutput,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { env } from './env.ts';

type SqsSdk = typeof import('@aws-sdk/client-sqs');

let loaded: Promise<{ sdk: SqsSdk; client: SQSClient }> | undefined;

function sqs(): Promise<{ sdk: SqsSdk; client: SQSClient }> {
  loaded ??= import('@aws-sdk/client-sqs').then(
    (sdk) => ({ sdk, client: new sdk.SQSClient({ region: env.region, endpoint: env.sqsEndpoint }) }),
    (error: unknown) => {
      // A failed load is tried again by the next send rather than remembered.
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}

export async function sendMessage(input: SendMessageCommandInput): Promise<SendMessageCommandOutput> {
  const { sdk, client } = await sqs();
  return client.send(new sdk.SendMessageCommand(input));
}

/** Deletes received messages by their receipt handles (a consumer releasing a FIFO group early). */
export async function deleteMessageBatch(input: DeleteMessageBatchCommandInput): Promise<DeleteMessageBatchCommandOutput> {
  const { sdk, client } = await sqs();
  return client.send(new sdk.DeleteMessageBatchCommand(input));
}

export async function sendMessageBatch(input: SendMessageBatchCommandInput): Promise<SendMessageBatchCommandOutput> {
  const { sdk, client } = await sqs();
  return client.send(new sdk.SendMessageBatchCommand(input));
}
