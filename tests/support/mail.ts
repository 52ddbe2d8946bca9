/**
 * The mails the local stack "sent" (infra/local/mail-sink.ts, SES's stand-in, reached through the
 * handlers' SES_ENDPOINT): a test reads a password-reset code the way its owner would, from the mail.
 */
import { inject } from 'vitest';
import { codeIn, MAILS_PATH, type SentMail } from '../../infra/local/mail-sink.ts';

export async function mailsTo(email: string): Promise<SentMail[]> {
  const res = await fetch(`${inject('env').SES_ENDPOINT}${MAILS_PATH}?to=${encodeURIComponent(email)}`);
  if (!res.ok) throw new Error(`mail sink answered ${res.status}`);
  return (await res.json()) as SentMail[];
}

/**
 * The code of the latest password-reset mail to this address. Pass `since` (Date.now() taken before
 * the request that mails it) to wait for that mail rather than an older one. The route answers after
 * the mail is sent, so the wait is short; running out of it says what was seen.
 */
export async function lastResetCode(email: string, opts: { since?: number; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let seen: SentMail | undefined;
  do {
    seen = (await mailsTo(email)).at(-1);
    const code = seen && seen.at >= (opts.since ?? 0) ? codeIn(seen.text) : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  const last = seen ? `the last one arrived at ${new Date(seen.at).toISOString()}` : 'none was ever sent';
  throw new Error(`no reset mail to ${email} since ${new Date(opts.since ?? 0).toISOString()}; ${last}`);
}
