/**
 * Domain errors carry the spec's ERR_ code; one mapper (http/error-mapper.ts) turns them into HTTP
 * responses. Use cases throw these and never build responses themselves.
 */
import type { ErrorCode } from '#contracts/errors';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = new.target.name;
  }
}

/** 400: bad input. `field` names the offending field with the spec's message. */
export class ValidationError extends AppError {
  constructor(
    readonly field: string,
    message: string,
    code: ErrorCode = 'ERR_VALIDATION',
  ) {
    super(code, 400, { field, message });
  }
}

export class NotFoundError extends AppError {
  constructor(code: ErrorCode = 'ERR_NOT_FOUND') {
    super(code, 404);
  }
}

/** 401: no valid session. */
export class UnauthorizedError extends AppError {
  constructor(code: ErrorCode = 'ERR_SESSION_EXPIRED', extra: Record<string, unknown> = {}) {
    super(code, 401, extra);
  }
}

/** 403: signed in but not allowed (role, plan flag, other tenant's resource). */
export class ForbiddenError extends AppError {
  constructor(code: ErrorCode = 'ERR_NO_PERMISSION', extra: Record<string, unknown> = {}) {
    super(code, 403, extra);
  }
}

/** 409: conflicts with existing state (duplicates, last default connection, ...). */
export class ConflictError extends AppError {
  constructor(code: ErrorCode, extra: Record<string, unknown> = {}) {
    super(code, 409, extra);
  }
}

/** 402: the company is past its due date. */
export class CompanyExpiredError extends AppError {
  constructor(dueDate: string, message: string) {
    super('ERR_COMPANY_EXPIRED', 402, { dueDate, message });
  }
}
