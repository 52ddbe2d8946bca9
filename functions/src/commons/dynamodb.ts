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
  ddb ??= DynamoDBDocumentClient.from(new DynamoDBClient({ region: env.region, endpoint: env.dynamoEndpoint, maxAttempts: 4 }), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return ddb;
}
