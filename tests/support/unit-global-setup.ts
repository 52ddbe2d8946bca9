/**
 * vitest globalSetup of the unit project: one DynamoDB Local (in memory) for every file of the run.
 * Each file still gets a table of its own (functions/test/support/dynamodb-local.ts creates one with
 * a unique name and drops it when the file stops), so files stay as isolated as with a JVM each,
 * without paying a JVM start and its warm-up 36 times over. Its endpoint reaches the workers through
 * the environment they inherit.
 */

import { freePort } from '../../functions/test/support/processes.ts';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local/dynamodb-local.ts';

export const SHARED_DYNAMODB_ENV = 'CONVERSA_TEST_DYNAMODB_ENDPOINT';

export default async function setup(): Promise<() => Promise<void>> {
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    if (lines.length > 50) lines.shift();
  };
  let ddb: Awaited<ReturnType<typeof startDynamoDbLocal>>;
  try {
    // Several files' tables live side by side: more heap than the stack's single table needs.
    ddb = await startDynamoDbLocal({ port: await freePort(), log, maxHeapMb: 512 });
  } catch (error) {
    throw new Error(`DynamoDB Local did not start: ${error instanceof Error ? error.message : String(error)}\n${lines.join('\n')}`);
  }
  process.env[SHARED_DYNAMODB_ENV] = ddb.endpoint;
  return async () => {
    delete process.env[SHARED_DYNAMODB_ENV];
    await ddb.child.stop();
  };
}
