/**
 * `npm run bootstrap-region -- --region sa-east-1 --table <TableName> --user-pool <UserPoolId> --email ops@example.com`
 *
 * A freshly deployed region has an empty table and user pool: nobody can sign in to create the first
 * plan and company. This runs the same seed the local stack runs on first start (plan 1, company 1,
 * a super admin) against the deployed resources named by the stack's outputs, with the operator's
 * own AWS credentials, and prints the admin's password once. Re-running it finds the admin and
 * changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

export interface BootstrapArgs {
  region: string;
  table: string;
  userPool: string;
  email: string;
  password: string;
}

const USAGE =
  'usage: npm run bootstrap-region -- --region <aws region> --table <TableName output> --user-pool <UserPoolId output> --email <admin email> [--password <initial password>]';

/** A password Cognito's default policy accepts (upper, lower, digit, 8+), from 18 random bytes. */
export function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}aA1`;
}

/** The command line, checked before anything touches AWS; throws the usage on a missing or bad value. */
export function parseBootstrapArgs(argv: readonly string[]): BootstrapArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      region: { type: 'string' },
      table: { type: 'string' },
      'user-pool': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
    },
    strict: true,
  });
  const { region, table, email } = values;
  const userPool = values['user-pool'];
  if (!region || !table || !userPool || !email) throw new Error(USAGE);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) throw new Error(`not an AWS region: ${region}\n${USAGE}`);
  if (!userPool.startsWith(`${region}_`)) throw new Error(`user pool ${userPool} is not in ${region}\n${USAGE}`);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`not an email: ${email}\n${USAGE}`);
  const password = values.password ?? generatePassword();
  if (password.length < 8) throw new Error('the password needs at least 8 characters');
  return { region, table, userPool, email, password };
}

async function main(): Promise<void> {
  const args = parseBootstrapArgs(process.argv.slice(2));
  // The functions' storage and Cognito adapters read these when they first build their clients.
  process.env.AWS_REGION = args.region;
  process.env.TABLE_NAME = args.table;
  process.env.USER_POOL_ID = args.userPool;
  const { seedPlatform } = await import('./seed.ts');
  const result = await seedPlatform({ adminEmail: args.email, adminPassword: args.password });
  if (!result.created) {
    console.log(`${args.email} already exists (company ${result.companyId}, user ${result.userId}); nothing changed.`);
    return;
  }
  console.log(`Created plan 1, company ${result.companyId} and super admin ${args.email} (user ${result.userId}).`);
  console.log(`Password: ${args.password}`);
  console.log('Sign in to the WebUrl output and change it in your profile.');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
