/**
 * Amazon SES locally: the one call the product makes (SESv2 SendEmail, functions/src/adapters/ses-mail.ts),
 * answered as SES answers it over the REST protocol @aws-sdk/client-sesv2 speaks (POST
 * /v2/email/outbound-emails, a JSON body, `{MessageId}` back; a malformed request is a 400 with
 * `x-amzn-ErrorType: BadRequestException`). The SDK reaches it through SES_ENDPOINT, as the other
 * clients reach their stand-ins. No mail leaves the machine: each one is kept in memory and appended to
 * `<data>/mail/outbox.jsonl`, and the log says who got it and the code it carries, so a developer can
 * reset a password locally.
 *
 * Tests read the mails from a vitest worker with GET /_local/mails?to=<address> (JSON, oldest first),
 * which is no AWS operation.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname } from 'node:path';
import { readCappedBody, StandInError, startStandIn } from './stand-in-server.ts';

export interface SentMail {
  messageId: string;
  /** Epoch ms when it arrived. */
  at: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface MailSink {
  endpoint: string;
  readonly sent: readonly SentMail[];
  stop(): Promise<void>;
}

export const MAILS_PATH = '/_local/mails';
const SEND_PATH = '/v2/email/outbound-emails';
const MAX_BODY_BYTES = 10 * 1024 * 1024;

const badRequest = (message: string) => new StandInError('BadRequestException', message);

/**
 * The first word of 6 to 8 digits in a mail's text: the code a developer types on the reset page. A
 * word on its own, so digits inside the address (`user-87791337@x.test`) are not taken for it.
 */
export const codeIn = (text: string): string | undefined => /(?<![^\s:])\d{6,8}(?![^\s.,;])/.exec(text)?.[0];

export async function startMailSink(opts: { port: number; file?: string; log: (line: string) => void }): Promise<MailSink> {
  const sent: SentMail[] = [];
  if (opts.file) mkdirSync(dirname(opts.file), { recursive: true });
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://mail.local');
    if (req.method === 'GET' && url.pathname === MAILS_PATH) {
      const to = url.searchParams.get('to')?.trim().toLowerCase();
      const mails = to ? sent.filter((mail) => mail.to.some((address) => address.toLowerCase() === to)) : sent;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== SEND_PATH)
      throw new StandInError('NotFoundException', `${req.method} ${url.pathname} is not an operation of this stand-in`, 404);
    const mail = parseSendEmail(await readCappedBody(req, MAX_BODY_BYTES, () => badRequest('The message is larger than SES takes')));
    sent.push(mail);
    if (opts.file) appendFileSync(opts.file, `${JSON.stringify(mail)}\n`);
    const code = codeIn(mail.text);
    opts.log(`[mail] to ${mail.to.join(', ')}: "${mail.subject}"${code ? ` (code ${code})` : ''}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ MessageId: mail.messageId }));
  };

  const server = await startStandIn({
    port: opts.port,
    handle: serve,
    internalCode: 'InternalFailure',
    answerError: (res, status, code, message) =>
      res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': code }).end(JSON.stringify({ message })),
  });
  return { endpoint: server.endpoint, sent, stop: server.stop };
}

interface SendEmailRequest {
  FromEmailAddress?: unknown;
  Destination?: { ToAddresses?: unknown; CcAddresses?: unknown; BccAddresses?: unknown };
  Content?: { Simple?: { Subject?: { Data?: unknown }; Body?: { Text?: { Data?: unknown }; Html?: { Data?: unknown } } } };
}

/** What SES refuses for the mistakes a sender can make: no sender, no recipient, no simple content. */
function parseSendEmail(raw: Buffer): SentMail {
  let body: SendEmailRequest;
  try {
    body = JSON.parse(raw.toString('utf8')) as SendEmailRequest;
  } catch {
    throw badRequest('The request body is not JSON');
  }
  const addresses = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  const to = [
    ...addresses(body.Destination?.ToAddresses),
    ...addresses(body.Destination?.CcAddresses),
    ...addresses(body.Destination?.BccAddresses),
  ];
  if (typeof body.FromEmailAddress !== 'string' || !body.FromEmailAddress) throw badRequest('FromEmailAddress is required');
  if (!to.length) throw badRequest('Missing final destination');
  const simple = body.Content?.Simple;
  const subject = simple?.Subject?.Data;
  const text = simple?.Body?.Text?.Data;
  const html = simple?.Body?.Html?.Data;
  if (typeof subject !== 'string') throw badRequest('Simple content needs a Subject');
  if (typeof text !== 'string' && typeof html !== 'string') throw badRequest('Simple content needs a Text or Html body');
  return {
    messageId: randomUUID(),
    at: Date.now(),
    from: body.FromEmailAddress,
    to,
    subject,
    text: typeof text === 'string' ? text : '',
    html: typeof html === 'string' ? html : '',
  };
}
