/**
 * DynamoDB Local, in memory, with the single table created from the same declaration the CDK stack
 * uses. For tests that need real conditional writes and transactions. Under the unit project the
 * run shares one JVM and each file gets a table of its own; otherwise a JVM on a free port.
 *
 *   const ddb = await startDynamoDbLocal();   // sets TABLE_NAME and DYNAMODB_ENDPOINT
 *   afterAll(() => ddb.stop());
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbJvmOptions } from '../../../infra/local/dynamodb-local/dynamodb-local.ts';
import { tableDeclaration } from '../../src/storage/table.ts';
import { freePort, spawnProcess, waitUntil } from './processes.ts';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');
const jarDir = join(repoRoot, '.data', 'dynamodb-local');

export interface DynamoDbLocal {
  endpoint: string;
  tableName: string;
  client: DynamoDBClient;
  stop: () => Promise<void>;
}

/** Local stand-ins accept any credentials, but the SDK still wants some. */
export function fakeAwsCredentials(): void {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  process.env.AWS_REGION ??= 'us-east-1';
}

export async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const { partitionKey, sortKey, globalIndexes } = tableDeclaration;
  const attributes = [partitionKey, sortKey, ...globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
}

/** Set by the unit project's globalSetup (tests/support/unit-global-setup.ts): one JVM for the run. */
const SHARED_ENDPOINT = 'CONVERSA_TEST_DYNAMODB_ENDPOINT';
let tables = 0;

const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

type Options = { tableName?: string; setEnv?: boolean };

/** Creates the table and (unless told not to) points this process's storage code at it. */
async function openTable(endpoint: string, client: DynamoDBClient, tableName: string, options: Options, stop: () => Promise<void>) {
  await createTable(client, tableName);
  if (options.setEnv ?? true) {
    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = endpoint;
  }
  return { endpoint, tableName, client, stop };
}

export async function startDynamoDbLocal(options: Options = {}): Promise<DynamoDbLocal> {
  const shared = process.env[SHARED_ENDPOINT];
  if (shared) {
    // A table of this file's own on the run's shared DynamoDB Local, dropped when the file stops.
    fakeAwsCredentials();
    const client = localClient(shared);
    const tableName = `${options.tableName ?? 'conversa-test'}-${process.pid}-${++tables}-${Date.now().toString(36)}`;
    return openTable(shared, client, tableName, options, async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    });
  }
  if (!existsSync(join(jarDir, 'DynamoDBLocal.jar'))) {
    throw new Error(`DynamoDB Local is not unpacked under ${jarDir}: run \`npm install\` (its postinstall fetches it).`);
  }
  fakeAwsCredentials();
  const port = await freePort();
  const proc = spawnProcess(
    'java',
    [
      // The stack's options (client JIT only, small heap): most of a test JVM's CPU was C2 compiling.
      ...dynamoDbJvmOptions(),
      `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(jarDir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-port',
      String(port),
    ],
    {
      cwd: jarDir,
    },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  try {
    await waitUntil(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${proc.output()}`);
        await client.send(new ListTablesCommand({}));
        return true;
      },
      'DynamoDB Local',
      90_000,
    );
  } catch (error) {
    await proc.stop();
    throw new Error(`${(error as Error).message}\n${proc.output()}`);
  }
  return openTable(endpoint, client, options.tableName ?? 'conversa-test', options, async () => {
    client.destroy();
    await proc.stop();
  });
}
