/** The SQS client, created on first use (see dynamodb.ts for why one module per client). */
import { SQSClient } from '@aws-sdk/client-sqs';
import { env } from './env.ts';

let sqs: SQSClient | undefined;

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ region: env.region, endpoint: env.sqsEndpoint });
  return sqs;
}
