/**
 * SES's stand-in (infra/local/mail-sink.ts) on a free port, with SES_ENDPOINT and MAIL_FROM set for the
 * handlers of this file, so a password reset mails its code there and a test reads it back.
 */
import { codeIn, type MailSink, startMailSink } from '../../../infra/local/mail-sink.ts';

export interface TestMailSink {
  sink: MailSink;
  /** The mails sent to this address, oldest first. */
  mailsTo(email: string): MailSink['sent'];
  /** The code of the latest mail to this address; throws when none was sent. */
  lastCodeFor(email: string): string;
  stop(): Promise<void>;
}

export async function startTestMailSink(): Promise<TestMailSink> {
  const sink = await startMailSink({ port: 0, log: () => undefined });
  process.env.SES_ENDPOINT = sink.endpoint;
  process.env.MAIL_FROM = 'Conversa <no-reply@conversa.test>';
  const mailsTo = (email: string) => sink.sent.filter((mail) => mail.to.includes(email.trim().toLowerCase()));
  return {
    sink,
    mailsTo,
    lastCodeFor: (email) => {
      const code = codeIn(mailsTo(email).at(-1)?.text ?? '');
      if (!code) throw new Error(`no reset code was mailed to ${email}`);
      return code;
    },
    stop: () => sink.stop(),
  };
}
