/**
 * `npm start`: the whole product locally on fixed ports (override with CONVERSA_PORT_<NAME>, see
 * ports.ts), data under .data/ surviving restarts. Prints where everything is and writes the same
 * to .data/local.json. Ctrl-C or SIGTERM stops every child process.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminPasswordWorks } from './admin-password-check.ts';
import { JavaMissingError } from './dynamodb-local/dynamodb-local.ts';
import { repoRoot } from './lambda-runtime.ts';
import { portsFromEnv } from './ports.ts';
import { DEFAULT_ADMIN, type LocalStack, startLocalStack } from './stack.ts';

const dataDir = join(repoRoot, '.data');
const localJson = join(dataDir, 'local.json');

interface LocalJson {
  webUrl?: string;
  apiUrl: string;
  wsUrl: string;
  admin: { email: string; password: string };
}

/**
 * The admin password is generated once and reused from .data/local.json. When that file is gone (or
 * unreadable) while .data/ still holds the seeded admin, the new password is set on the stored admin
 * (`replacesPassword`), so the printed credentials always sign in.
 */
function adminCredentials(): { email: string; password: string; replacesPassword?: boolean } {
  if (existsSync(localJson)) {
    try {
      const saved = JSON.parse(readFileSync(localJson, 'utf8')) as Partial<LocalJson>;
      if (saved.admin?.email && saved.admin.password) return { email: saved.admin.email, password: saved.admin.password };
    } catch {
      // Unreadable: a new password below, set on the stored admin.
    }
  }
  // Upper, lower and digit guaranteed, to satisfy the pool's password policy whatever the random part is.
  return { email: DEFAULT_ADMIN.email, password: `Cv${randomBytes(12).toString('base64url')}7a`, replacesPassword: true };
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const admin = adminCredentials();
  let stack: LocalStack | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the local stack...\n`);
    await stack?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    stack = await startLocalStack({ dataDir, ports: portsFromEnv(), web: true, seedAdmin: admin });
  } catch (error) {
    if (error instanceof JavaMissingError) {
      process.stderr.write(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const out: LocalJson = {
    webUrl: stack.webUrl,
    apiUrl: stack.apiUrl,
    wsUrl: stack.wsUrl,
    admin: { email: stack.admin.email, password: stack.admin.password },
  };
  writeFileSync(localJson, `${JSON.stringify(out, null, 2)}\n`, { mode: 0o600 });
  const works = await adminPasswordWorks(stack.cognito, stack.env.AWS_REGION ?? 'us-east-1', stack.admin);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      '',
      `Conversa is running (started in ${seconds} s; ${phases(stack.timings)}):`,
      `  Web app:    ${stack.webUrl}`,
      `  API:        ${stack.apiUrl}`,
      `  WebSocket:  ${stack.wsUrl}`,
      `  WhatsApp:   ${stack.simulatorUrl}  (simulator: chat as a contact with your connections)`,
      `  Payments:   ${stack.paymentProviderUrl}  (fake Asaas: pay the PIX charges of the billing page)`,
      `  Bots:       ${stack.botFakesUrl}  (fake providers; #lento, #lixo, #limite, #falha in a message make them fail)`,
      '    AI prompts:  any API key works (sk-invalid: 401, sk-ratelimited: 429); answers "Resposta: <message>"',
      `    Typebot:     URL ${stack.botFakes.typebotBaseUrl}  slug ${stack.botFakes.typebotSlug}`,
      `    Webhook/n8n: ${stack.botFakes.webhookEchoUrl}`,
      `    Dialogflow:  credentials JSON from ${stack.botFakes.dialogflowCredentialsUrl}  (project conversa-local)`,
      `  Mail:       ${stack.mailUrl}/_local/mails  (SES stand-in: every mail sent, also in .data/mail/outbox.jsonl)`,
      `  Admin:      ${stack.admin.email}`,
      `  Password:   ${stack.admin.password}`,
      `  (also in ${localJson}; a password-reset mail prints its code in this log: "[mail] to ...")`,
      ...(works === false
        ? [
            '  That password no longer signs in: it was changed in the app since it was saved. Use the one you set,',
            `  or "Forgot password" on the login page (the code prints here), or delete ${localJson} and`,
            '  start again to have a new one set.',
          ]
        : []),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

/** "dynamodb 4.8 s, seeded 6.1 s": when each part was ready, to see what a slow start waited for. */
function phases(timings: Record<string, number>): string {
  return Object.entries(timings)
    .map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
}

main().catch((error: unknown) => {
  process.stderr.write(`\nThe local stack failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
