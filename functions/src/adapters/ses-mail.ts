/**
 * Mail the product sends (password-reset codes), through Amazon SES v2's SendEmail from MAIL_FROM (a
 * verified identity of the region; the stack grants ses:SendEmail on it and nothing else). The SDK is
 * created and loaded on the first mail, as commons/sqs.ts does: it sits in a chunk of its own that a
 * cold start of the auth Lambda does not load, as most of its requests are sign-ins that mail nothing.
 * Locally SES_ENDPOINT points it at infra/local/mail-sink.ts.
 */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { env } from '#commons/env';
import type { OutgoingMail } from '#domain/auth/password-reset';

type SesSdk = typeof import('@aws-sdk/client-sesv2');

let loaded: Promise<{ sdk: SesSdk; client: SESv2Client }> | undefined;

function ses(): Promise<{ sdk: SesSdk; client: SESv2Client }> {
  loaded ??= import('@aws-sdk/client-sesv2').then(
    (sdk) => ({ sdk, client: new sdk.SESv2Client({ region: env.region, endpoint: env.sesEndpoint }) }),
    (error: unknown) => {
      // A failed load is tried again by the next mail rather than remembered.
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}

export async function sendMail(mail: OutgoingMail): Promise<void> {
  const { sdk, client } = await ses();
  const data = (text: string) => ({ Data: text, Charset: 'UTF-8' });
  await client.send(
    new sdk.SendEmailCommand({
      FromEmailAddress: env.mailFrom,
      Destination: { ToAddresses: [mail.to] },
      Content: { Simple: { Subject: data(mail.subject), Body: { Text: data(mail.text), Html: data(mail.html) } } },
    }),
  );
}
