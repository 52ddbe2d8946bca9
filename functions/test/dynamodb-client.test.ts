import { describe, expect, it } from 'vitest';
import { documentClient } from '#commons/dynamodb';

describe('the DynamoDB client', () => {
  it('builds no redacted log copy of requests and responses (no logger reads them)', () => {
    // Prepare / Act
    const steps = documentClient().middlewareStack.identify();

    // Assess: the SDK names it loggerMiddleware; the stack still signs and retries.
    expect(steps.some((step) => step.startsWith('loggerMiddleware'))).toBe(false);
    expect(steps.some((step) => step.startsWith('retryMiddleware'))).toBe(true);
  });
});
