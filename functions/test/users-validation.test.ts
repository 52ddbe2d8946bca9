/** SPEC 5 "User form" with BEHAVIOUR "Passwords": the messages the form and the API share. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#commons/errors';
import { messages } from '#contracts/common';
import { createUserSchema, updateUserSchema } from '#contracts/users';
import { parseInput } from '#http/validate';

const valid = { name: 'Ana', email: 'ana@acme.test', password: 'Secret123' };

function failure(
  schema: typeof createUserSchema | typeof updateUserSchema,
  body: unknown,
): { field: string; message: unknown } | undefined {
  try {
    parseInput(schema, body);
  } catch (error) {
    if (error instanceof ValidationError) return { field: error.field, message: error.extra.message };
    throw error;
  }
  return undefined;
}

describe('user form validation', () => {
  it.each([
    [{ ...valid, name: undefined }, 'name', messages.required],
    [{ ...valid, name: 'A' }, 'name', messages.tooShort],
    [{ ...valid, name: 'x'.repeat(51) }, 'name', messages.tooLong],
    [{ ...valid, email: undefined }, 'email', messages.required],
    [{ ...valid, email: 'ana@' }, 'email', messages.invalidEmail],
    [{ ...valid, password: 'short1A' }, 'password', messages.weakPassword],
    [{ ...valid, password: 'alllowercase1' }, 'password', messages.weakPassword],
    [{ ...valid, profile: 'root' }, 'profile', expect.any(String)],
  ])('create refuses %j naming %s', (body, field, message) => {
    expect(failure(createUserSchema, body)).toEqual({ field, message });
  });

  it('accepts names at the 2 and 50 character bounds and defaults profile to user', () => {
    expect(parseInput(createUserSchema, { ...valid, name: 'Al' }).profile).toBe('user');
    expect(parseInput(createUserSchema, { ...valid, name: 'x'.repeat(50) }).name).toHaveLength(50);
  });

  it('update treats an empty password as "unchanged" and checks a given one', () => {
    expect(failure(updateUserSchema, { password: '' })).toBeUndefined();
    expect(failure(updateUserSchema, { password: 'weak' })).toEqual({ field: 'password', message: messages.weakPassword });
  });
});
