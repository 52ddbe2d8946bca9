/**
 * DynamoDB Local (AWS's own emulator) as a child process, and the single table created from the
 * same declaration the CDK stack uses.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE_STREAM_VIEW } from '@conversa/functions/declarations/table-streams';
import { tableDeclaration } from '@conversa/functions/storage/table';
import { type Child, spawnChild, waitFor } from '../child-process.ts';
import { ensureDynamoDbLocalJar } from './ensure-jar.ts';

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs a Java runtime (17 or newer) and `java` was not found on the PATH.\n' +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless\n' +
        '  macOS:         brew install openjdk@17\n' +
        'Then run `npm start` again.',
    );
    this.name = 'JavaMissingError';
  }
}

export function assertJava(): void {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new JavaMissingError();
  }
}

export interface DynamoDbLocal {
  endpoint: string;
  child: Child;
}

/**
 * The JVM's options (the stack's DynamoDB Local and the tests'). A small heap is plenty for
 * local data and keeps the RSS down. The client JIT only (TieredStopAtLevel=1): C2's compiler
 * threads were most of DynamoDB Local's CPU on a 2-core machine (inbound bench, 20 msg/s: 40.8 ->
 * 15.3 ms of Java CPU per message), and C1's code is fast enough for local data.
 * CONVERSA_DYNAMODB_JAVA_OPTS adds options (a profiler, say).
 */
const dynamoDbJvmOptions = (maxHeapMb = 256): string[] => [
  '-Xms64m',
  `-Xmx${maxHeapMb}m`,
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  ...(process.env.CONVERSA_DYNAMODB_JAVA_OPTS ?? '').split(' ').filter(Boolean),
];

/** `dbPath` undefined runs in memory (tests); otherwise the data survives restarts. */
export async function startDynamoDbLocal(opts: {
  port: number;
  dbPath?: string;
  log: (line: string) => void;
  /** The JVM's heap ceiling (256 MB unless given). */
  maxHeapMb?: number;
}): Promise<DynamoDbLocal> {
  assertJava();
  const dir = ensureDynamoDbLocalJar();
  if (opts.dbPath) mkdirSync(opts.dbPath, { recursive: true });
  const child = spawnChild({
    name: 'dynamodb',
    command: 'java',
    args: [
      ...dynamoDbJvmOptions(opts.maxHeapMb),
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-port',
      String(opts.port),
      ...(opts.dbPath ? ['-dbPath', opts.dbPath] : ['-inMemory']),
    ],
    // In memory it still writes dynamodb-local-metadata.json to its cwd: keep that out of the repo.
    cwd: opts.dbPath ?? tmpdir(),
    log: opts.log,
  });
  const endpoint = `http://127.0.0.1:${opts.port}`;
  const client = dynamoClient(endpoint);
  try {
    await waitFor(
      'DynamoDB Local',
      async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      { timeoutMs: 60_000, exited: child.exited },
    );
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, child };
}

export function dynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
}

/**
 * Creates the table from `tableDeclaration`, with its stream (declarations/table-streams.ts), unless
 * it already exists (a restart with data on disk); an existing table gets the stream it lacks.
 */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  /**
   * False for a unit test's throwaway table that reads no stream: DynamoDB Local keeps a deleted
   * table's stream records, and writes to every later table slow down with them (10,000 records
   * of a deleted table made the next table's 10,000 puts 4x slower, two tables 10x, three 30x).
   */
  options: { stream?: boolean } = {},
): Promise<'created' | 'existing'> {
  const stream = options.stream ?? true;
  const client = dynamoClient(endpoint);
  try {
    let existing: TableDescription | undefined;
    try {
      existing = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    if (existing) {
      if (stream) await ensureStream(client, tableName, existing);
      return 'existing';
    }
    const keyAttributes = new Set<string>([tableDeclaration.partitionKey, tableDeclaration.sortKey]);
    for (const index of tableDeclaration.globalIndexes) {
      keyAttributes.add(index.partitionKey);
      keyAttributes.add(index.sortKey);
    }
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: tableDeclaration.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDeclaration.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: tableDeclaration.globalIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW } } : {}),
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDeclaration.timeToLiveAttribute, Enabled: true },
      }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}

/**
 * Data on disk from before the table had a stream: DynamoDB refuses to enable a stream on a table
 * that has one, so only a table without one (or with another view, which the consumers cannot read
 * images from) is updated. The stream starts empty: writes made before it are never in it.
 */
async function ensureStream(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<void> {
  const spec = table.StreamSpecification;
  if (spec?.StreamEnabled && spec.StreamViewType === TABLE_STREAM_VIEW) return;
  if (spec?.StreamEnabled)
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
  await client.send(
    new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE_STREAM_VIEW } }),
  );
}
