/**
 * vitest globalSetup of the unit project: one DynamoDB Local (in memory) for every file of the run.
 * Each file still gets a table of its own (functions/test/support/dynamodb-local.ts creates one with
 * a unique name and drops it when the file stops), so files stay as isolated as with a JVM each,
 * without paying a JVM start and its warm-up 36 times over. Its endpoint reaches the workers through
 * the environment they inherit.
 */
import { SHARED_DYNAMODB_ENDPOINT_ENV, startTestJvm } from '../../functions/test/support/dynamodb-local.ts';

export default async function setup(): Promise<() => Promise<void>> {
  // Several files' tables live side by side: more heap than the stack's single table needs.
  const jvm = await startTestJvm(512);
  process.env[SHARED_DYNAMODB_ENDPOINT_ENV] = jvm.endpoint;
  return async () => {
    delete process.env[SHARED_DYNAMODB_ENDPOINT_ENV];
    await jvm.stop();
  };
}
