import { describe, expect, it } from 'vitest';
import { AppError } from '#commons/errors';
import { byName, matchesSearch, pageOf } from '#domain/users/paging';
import { canReadUser, permittedUserPatch } from '#domain/users/permissions';

const admin = { userId: 1, companyId: 7, profile: 'admin', super: false };
const plain = { userId: 2, companyId: 7, profile: 'user', super: false };
const current = { profile: 'user', queueIds: [3, 1], allTicket: 'desabled', whatsappId: null };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
  return undefined;
}

describe('user permissions', () => {
  it('lets an admin read anyone and a plain user only themselves', () => {
    expect(canReadUser(admin, 2)).toBe(true);
    expect(canReadUser(plain, 2)).toBe(true);
    expect(canReadUser(plain, 1)).toBe(false);
  });

  it('lets an admin change profile, queues, allTicket and connection', () => {
    const input = { profile: 'admin' as const, queueIds: [9], allTicket: 'enabled' as const, whatsappId: 4 };
    expect(permittedUserPatch(admin, 2, input, current)).toEqual(input);
  });

  it('refuses a plain user editing someone else', () => {
    expect(codeOf(() => permittedUserPatch(plain, 1, { name: 'Eve' }, current))).toBe('403 ERR_NO_PERMISSION');
  });

  it.each([
    ['profile', { profile: 'admin' as const }],
    ['queues', { queueIds: [1, 2, 3] }],
    ['allTicket', { allTicket: 'enabled' as const }],
    ['default connection', { whatsappId: 5 }],
  ])('refuses a plain user changing their own %s', (_label, input) => {
    expect(codeOf(() => permittedUserPatch(plain, 2, input, current))).toBe('403 ERR_NO_PERMISSION');
  });

  it('drops unchanged admin-only fields the profile dialog sends back', () => {
    // Prepare: the whole form, admin-only fields as they are (queue order differs)
    const input = { name: 'Bob', profile: 'user' as const, queueIds: [1, 3], allTicket: 'desabled' as const, whatsappId: null };
    // Act
    const patch = permittedUserPatch(plain, 2, input, current);
    // Assess
    expect(patch).toEqual({ name: 'Bob' });
  });
});

describe('list paging and search', () => {
  it('matches case- and accent-insensitively on any field', () => {
    expect(matchesSearch('jose', ['José Pérez', 'x@y.com'])).toBe(true);
    expect(matchesSearch('Y.COM', ['Ana', 'x@y.com'])).toBe(true);
    expect(matchesSearch('zzz', ['Ana', 'x@y.com'])).toBe(false);
    expect(matchesSearch('  ', ['Ana'])).toBe(true);
  });

  it('pages 1-based and reports hasMore', () => {
    const items = Array.from({ length: 45 }, (_, i) => i);
    expect(pageOf(items, 1)).toEqual({ items: items.slice(0, 20), hasMore: true });
    expect(pageOf(items, 3)).toEqual({ items: items.slice(40, 45), hasMore: false });
    expect(pageOf(items, 4).items).toEqual([]);
  });

  it('sorts by name ignoring case and accents', () => {
    expect([{ name: 'bob' }, { name: 'Álvaro' }, { name: 'Carla' }].sort(byName).map((u) => u.name)).toEqual(['Álvaro', 'bob', 'Carla']);
  });
});
