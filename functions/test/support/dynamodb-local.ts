/**
 * DynamoDB Local, in memory, with a table made by the local stack's own code (the declaration the
 * CDK stack uses). For tests that need real conditional writes and transactions. Under the unit
 * project the run shares one JVM (tests/support/unit-global-setup.ts) and each file gets a table of
 * its own, dropped when the file stops; otherwise the file starts a JVM of its own on a free port.
 *
 *   const ddb = await startDynamoDbLocal();   // sets TABLE_NAME and DYNAMODB_ENDPOINT
 *   afterAll(() => ddb.stop());
 *
 * With `streams: true` the table has its stream, as in AWS; nothing reads it unless the file calls
 * drainTableStreams() (./table-streams.ts), which runs the stream consumers over it. Without, a
 * file's writes leave no stream records behind on the shared JVM (ensureTable says why that matters).
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startDynamoDbLocal as startJvm } from '../../../infra/local/dynamodb-local/dynamodb-local.ts';
import { freePort } from './processes.ts';
import { stopTableStreams } from './table-streams.ts';

/** Set by the unit project's globalSetup to the run's shared JVM. */
export const SHARED_DYNAMODB_ENDPOINT_ENV = 'CONVERSA_TEST_DYNAMODB_ENDPOINT';

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

/** A JVM in memory on a free port (a file's own, or the run's shared one); its last log lines go with a failure to start. */
export async function startTestJvm(maxHeapMb?: number): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const lines: string[] = [];
  try {
    const jvm = await startJvm({ port: await freePort(), log: (line) => lines.push(line), maxHeapMb });
    return { endpoint: jvm.endpoint, stop: () => jvm.child.stop() };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${lines.slice(-50).join('\n')}`);
  }
}

let tables = 0;

export async function startDynamoDbLocal(
  options: {
    tableName?: string;
    setEnv?: boolean;
    /** The table's stream, for a file that runs its consumers (drainTableStreams); off by default (ensureTable says why). */
    streams?: boolean;
  } = {},
): Promise<DynamoDbLocal> {
  fakeAwsCredentials();
  const shared = process.env[SHARED_DYNAMODB_ENDPOINT_ENV];
  const jvm = shared ? undefined : await startTestJvm();
  const endpoint = shared ?? (jvm as { endpoint: string }).endpoint;
  const base = options.tableName ?? 'conversa-test';
  // On the shared JVM every file of the run has a table there: the name tells them apart.
  const tableName = shared ? `${base}-${process.pid}-${++tables}-${Date.now().toString(36)}` : base;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(endpoint, tableName, { stream: options.streams ?? false });
  if (options.setEnv ?? true) {
    process.env.TABLE_NAME = tableName;
    process.env.DYNAMODB_ENDPOINT = endpoint;
  }
  return {
    endpoint,
    tableName,
    client,
    stop: async () => {
      await stopTableStreams(tableName);
      if (shared) await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
      await jvm?.stop();
    },
  };
}
