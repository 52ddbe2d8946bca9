/**
 * POST /queueIntegration/testSession (SPEC 7): the admin's Test button in the Dialogflow dialog. One
 * detectIntent of 'Olá' with the given (or, while editing, the stored) credentials. Whatever goes
 * wrong on Dialogflow's side (refused key, unknown project, unreachable host, a hang) is the admin's
 * to fix, so it is a 422 naming the provider's reason, never a 500; and it answers within
 * TEST_DEADLINE_MS whatever the provider does (the token exchange and the call are two requests).
 */
import { randomUUID } from 'node:crypto';
import { detectIntent } from '#adapters/dialogflow';
import { ProviderError } from '#adapters/provider-error';
import { AppError } from '#commons/errors';
import type { TestSessionInput, TestSessionResult } from '#contracts/queue-integrations';
import { checkServiceAccount, storedCredentials } from './queue-integrations.ts';

export const TEST_DEADLINE_MS = 10_000;
export const TEST_TEXT = 'Olá';

export class IntegrationTestFailedError extends AppError {
  constructor(reason: string, providerStatus: number | string) {
    super('ERR_INTEGRATION_TEST_FAILED', 422, { reason, providerStatus });
  }
}

export async function testDialogflowSession(
  companyId: number,
  input: TestSessionInput,
  deadlineMs = TEST_DEADLINE_MS,
): Promise<TestSessionResult> {
  const credentialsJson =
    input.jsonContent.trim() !== ''
      ? checkServiceAccount(input.jsonContent)
      : input.id !== undefined
        ? await storedCredentials(companyId, input.id)
        : checkServiceAccount('');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new IntegrationTestFailedError('Dialogflow did not answer in time', 'timeout')), deadlineMs);
  });
  try {
    const answer = await Promise.race([
      detectIntent({
        credentialsJson,
        projectName: input.projectName,
        sessionId: `test-${randomUUID()}`,
        text: TEST_TEXT,
        language: input.language,
        timeoutMs: deadlineMs,
      }),
      deadline,
    ]);
    return { ok: true, replies: answer.replies };
  } catch (error) {
    if (error instanceof IntegrationTestFailedError) throw error;
    if (error instanceof ProviderError) throw new IntegrationTestFailedError(error.message.slice(0, 500), error.status);
    // The client promises ProviderError for every failure; anything else still is the provider's, not ours.
    throw new IntegrationTestFailedError(error instanceof Error ? error.message.slice(0, 500) : 'Dialogflow failed', 'invalid');
  } finally {
    clearTimeout(timer);
  }
}
