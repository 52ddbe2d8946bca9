/**
 * The AWS list prices bench:cost bills with: one region, on-demand, no free tier, no volume tier
 * past the first. Every figure carries its source page and the date it was taken.
 *
 * Region: us-east-1 (N. Virginia). Conversa's customers are Brazilian and sa-east-1 (São Paulo) is
 * where a production stack would likely run, but these figures were written without internet access,
 * from the published us-east-1 list as known on the date below, which is the one we can state with
 * confidence (issue 24's own "$13 of DynamoDB writes per million" is 21.5 WRU x $0.625). São Paulo
 * lists most of these services higher (DynamoDB and S3 by roughly half again, Fargate and NAT
 * gateways more): before quoting a Brazilian operator, replace this table with sa-east-1's from the
 * same pages; bench:cost reads no price from anywhere else.
 */
export const REGION = 'us-east-1';
/** When the figures were taken: from the public pages as known then (no live check; see above). */
export const TAKEN = '2025-06 (as of the author’s knowledge of the published list; not re-checked online)';

export interface Price {
  usd: number;
  per: string;
  source: string;
}

const dynamodb = 'https://aws.amazon.com/dynamodb/pricing/on-demand/';
const dynamodbProvisioned = 'https://aws.amazon.com/dynamodb/pricing/provisioned/';
const lambda = 'https://aws.amazon.com/lambda/pricing/';
const sqs = 'https://aws.amazon.com/sqs/pricing/';
const apiGateway = 'https://aws.amazon.com/api-gateway/pricing/';
const s3 = 'https://aws.amazon.com/s3/pricing/';
const fargate = 'https://aws.amazon.com/fargate/pricing/';
const vpc = 'https://aws.amazon.com/vpc/pricing/';
const cloudwatch = 'https://aws.amazon.com/cloudwatch/pricing/';

export const prices = {
  /** On-demand, Standard table class (halved on 2024-11-01). */
  dynamoWriteUnit: { usd: 0.625 / 1e6, per: 'write request unit', source: dynamodb },
  dynamoReadUnit: { usd: 0.125 / 1e6, per: 'read request unit', source: dynamodb },
  /** Provisioned capacity (context tableCapacity=provisioned), Standard table class: a unit kept ready for an hour. */
  dynamoWriteCapacityHour: { usd: 0.00065, per: 'write capacity unit-hour (provisioned)', source: dynamodbProvisioned },
  dynamoReadCapacityHour: { usd: 0.00013, per: 'read capacity unit-hour (provisioned)', source: dynamodbProvisioned },
  dynamoStorageGbMonth: { usd: 0.25, per: 'GB-month stored (past the first 25 GB)', source: dynamodb },
  /** arm64 (Graviton), as infra/lib/lambda-function.ts deploys every function; first duration tier. */
  lambdaArmGbSecond: { usd: 0.0000133334, per: 'GB-second (arm64)', source: lambda },
  lambdaX86GbSecond: { usd: 0.0000166667, per: 'GB-second (x86_64)', source: lambda },
  lambdaRequest: { usd: 0.2 / 1e6, per: 'request', source: lambda },
  sqsStandardRequest: { usd: 0.4 / 1e6, per: 'standard queue request (64 KB chunk)', source: sqs },
  sqsFifoRequest: { usd: 0.5 / 1e6, per: 'FIFO queue request (64 KB chunk)', source: sqs },
  /** First 300 million a month. */
  httpApiRequest: { usd: 1.0 / 1e6, per: 'HTTP API request (512 KB chunk)', source: apiGateway },
  /** First billion a month; a message is up to 32 KB, either way (the gateway's ping answers too). */
  websocketMessage: { usd: 1.0 / 1e6, per: 'WebSocket message (32 KB chunk)', source: apiGateway },
  websocketConnectionMinute: { usd: 0.25 / 1e6, per: 'WebSocket connection-minute', source: apiGateway },
  s3PutRequest: { usd: 0.005 / 1000, per: 'S3 PUT, COPY, POST or LIST request', source: s3 },
  s3GetRequest: { usd: 0.0004 / 1000, per: 'S3 GET or other request', source: s3 },
  s3StorageGbMonth: { usd: 0.023, per: 'S3 Standard GB-month (first 50 TB)', source: s3 },
  fargateArmVcpuHour: { usd: 0.03238, per: 'Fargate vCPU-hour (Linux/ARM)', source: fargate },
  fargateArmGbHour: { usd: 0.00356, per: 'Fargate GB-hour (Linux/ARM)', source: fargate },
  natGatewayHour: { usd: 0.045, per: 'NAT gateway-hour', source: vpc },
  natGatewayGb: { usd: 0.045, per: 'GB processed by a NAT gateway', source: vpc },
  publicIpv4Hour: { usd: 0.005, per: 'public IPv4 address-hour (the egress Elastic IP)', source: vpc },
  logsIngestedGb: { usd: 0.5, per: 'CloudWatch Logs GB ingested (standard class)', source: cloudwatch },
} satisfies Record<string, Price>;

export const HOURS_A_MONTH = 730;
