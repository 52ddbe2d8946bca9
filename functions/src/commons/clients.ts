/**
 * AWS SDK clients as module singletons, created on first use. Endpoints come from the environment
 * so the same code talks to AWS or to the local stand-ins.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from './env.ts';

let ddb: DynamoDBDocumentClient | undefined;
let cognito: CognitoIdentityProviderClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

export function documentClient(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(new DynamoDBClient({ region: env.region, endpoint: env.dynamoEndpoint, maxAttempts: 4 }), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return ddb;
}

export function cognitoClient(): CognitoIdentityProviderClient {
  cognito ??= new CognitoIdentityProviderClient({ region: env.region, endpoint: env.cognitoEndpoint });
  return cognito;
}

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    region: env.region,
    endpoint: env.s3Endpoint,
    forcePathStyle: Boolean(env.s3Endpoint),
    // The SDK's default (WHEN_SUPPORTED) signs the CRC32 of an empty body into a presigned PUT
    // (x-amz-checksum-crc32=AAAAAA==), and S3 refuses every real upload to that URL (BadDigest).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return s3;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient({ region: env.region, endpoint: env.sqsEndpoint });
  return sqs;
}
