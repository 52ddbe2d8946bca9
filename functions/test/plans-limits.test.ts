import { describe, expect, it } from 'vitest';
import { AppError } from '#commons/errors';
import { assertPlanLimit, hasRoomFor } from '#domain/plans/limits';

describe('plan limits', () => {
  it('treats a limit of 0 as no limit', () => {
    expect(hasRoomFor(0, 10_000)).toBe(true);
  });

  it('allows a record while under the limit and refuses at the limit', () => {
    expect(hasRoomFor(3, 2)).toBe(true);
    expect(hasRoomFor(3, 3)).toBe(false);
  });

  it('throws 403 with the given code at the limit', () => {
    // Act
    let caught: unknown;
    try {
      assertPlanLimit(2, 2, 'ERR_PLAN_LIMIT_USERS');
    } catch (error) {
      caught = error;
    }
    // Assess
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).status).toBe(403);
    expect((caught as AppError).code).toBe('ERR_PLAN_LIMIT_USERS');
  });
});
