/**
 * The local SES (infra/local/mail-sink.ts) answers the SESv2 SDK as SES does: a mail it takes gets a
 * MessageId and is kept; a mail SES would refuse (no sender, no recipient, no subject) is a 400
 * BadRequestException the SDK names, and nothing of it is kept; a call it does not play is a 404.
 */
import { SESv2Client, SendEmailCommand, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMailSink, type TestMailSink } from './support/mail-sink.ts';

let mail: TestMailSink;
let ses: SESv2Client;

beforeAll(async () => {
  mail = await startTestMailSink();
  ses = new SESv2Client({ region: 'us-east-1', endpoint: mail.sink.endpoint, credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});

afterAll(() => mail?.stop());

const content = { Simple: { Subject: { Data: 'Código' }, Body: { Text: { Data: 'Seu código: 12345678' } } } };
const refusal = (input: SendEmailCommandInput) =>
  ses.send(new SendEmailCommand(input)).then(
    () => 'accepted',
    (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => `${error.$metadata?.httpStatusCode} ${error.name}`,
  );

describe('the local SES', () => {
  it('keeps a mail SES would send and answers its MessageId', async () => {
    // Act
    const out = await ses.send(
      new SendEmailCommand({ FromEmailAddress: 'a@conversa.test', Destination: { ToAddresses: ['ana@loja.test'] }, Content: content }),
    );
    // Assess
    expect(out.MessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(mail.lastCodeFor('ana@loja.test')).toBe('12345678');
  });

  it('refuses a mail without a sender, a recipient or a subject, and keeps none of them', async () => {
    // Prepare
    const before = mail.sink.sent.length;
    // Act / Assess
    await expect(refusal({ Destination: { ToAddresses: ['b@loja.test'] }, Content: content })).resolves.toBe('400 BadRequestException');
    await expect(refusal({ FromEmailAddress: 'a@conversa.test', Destination: { ToAddresses: [] }, Content: content })).resolves.toBe(
      '400 BadRequestException',
    );
    await expect(
      refusal({
        FromEmailAddress: 'a@conversa.test',
        Destination: { ToAddresses: ['b@loja.test'] },
        Content: { Simple: { Body: { Text: { Data: 'x' } } } } as SendEmailCommandInput['Content'],
      }),
    ).resolves.toBe('400 BadRequestException');
    expect(mail.sink.sent.length).toBe(before);
  });

  it('answers 404 to a call it does not play', async () => {
    const answer = await fetch(`${mail.sink.endpoint}/v2/email/identities`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-amzn-errortype')).toBe('NotFoundException');
  });
});
