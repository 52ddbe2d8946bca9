/**
 * Validation at the edge: a zod failure becomes a 400 naming the first offending field with the
 * spec's message, never a 500.
 */
import type { z } from 'zod';
import { ValidationError } from '#commons/errors';
import { idParamSchema } from '#contracts/common';

/** Dotted path of a zod issue (`queueIds.2`); the root is reported as `body`. */
export function issuePath(path: readonly PropertyKey[], root = 'body'): string {
  return path.length ? path.map(String).join('.') : root;
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ValidationError(issue ? issuePath(issue.path, root) : root, issue?.message ?? 'Invalid');
}

/** A numeric path id (`/users/{id}`); `abc` is a 400 naming the parameter. */
export function parseId(params: Record<string, string>, name = 'id'): number {
  const result = idParamSchema.safeParse(params[name]);
  if (!result.success) throw new ValidationError(name, 'Invalid id');
  return result.data;
}
