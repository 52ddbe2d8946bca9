import { describe, expect, it } from 'vitest';
import { parseBootstrapArgs } from '../ops/bootstrap-region.ts';

const base = ['--region', 'sa-east-1', '--table', 'Conversa-Table', '--user-pool', 'sa-east-1_AbC123', '--email', 'ops@example.com'];

describe('bootstrap-region arguments', () => {
  it('takes the stack outputs and generates a password Cognito accepts when none is given', () => {
    const args = parseBootstrapArgs(base);

    expect(args).toMatchObject({ region: 'sa-east-1', table: 'Conversa-Table', userPool: 'sa-east-1_AbC123', email: 'ops@example.com' });
    expect(args.password).toMatch(/[a-z]/);
    expect(args.password).toMatch(/[A-Z]/);
    expect(args.password).toMatch(/\d/);
    expect(args.password.length).toBeGreaterThanOrEqual(20);
    expect(parseBootstrapArgs(base).password).not.toBe(args.password);
  });

  it.each([
    ['a missing table', base.slice(0, 2).concat(base.slice(4))],
    ['a pool of another region', [...base.slice(0, 4), '--user-pool', 'us-east-1_AbC123', ...base.slice(6)]],
    ['a region that is not one', ['--region', 'brazil', ...base.slice(2)]],
    ['an email that is not one', [...base.slice(0, 6), '--email', 'ops']],
    ['a short password', [...base, '--password', 'abc']],
    ['an unknown option', [...base, '--force']],
  ])('refuses %s before touching AWS', (_name, argv) => {
    expect(() => parseBootstrapArgs(argv)).toThrow();
  });
});
