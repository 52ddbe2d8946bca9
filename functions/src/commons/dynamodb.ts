/**
 * The DynamoDB document client, a module singleton created on first use. One module per AWS client,
 * so a Lambda loads only the SDK packages its code reaches (a shared clients module made every
 * Lambda load Cognito, S3 and SQS at cold start). The endpoint comes from the environment, so the
 * same code talks to AWS or to DynamoDB Local.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from './env.ts';

let ddb: DynamoDBDocumentClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  if (ddb) return ddb;
  const client = new DynamoDBClient({ region: env.region, endpoint: env.dynamoEndpoint, maxAttempts: 4 });
  // The SDK's logger middleware builds a redacted copy of every input and output (each item walked
  // against the command's schema) to hand to the client's logger, even to the default no-op one this
  // client keeps: about 1 ms of CPU on a ticket list page (2 requests, 41 items), for logs nobody reads.
  client.middlewareStack.remove('loggerMiddleware');
  ddb = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false } });
  return ddb;
}
