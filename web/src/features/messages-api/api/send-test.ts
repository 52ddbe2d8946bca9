import { runtimeConfig } from '../../../config/runtime-config.ts';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * The Messages API's test forms call the API exactly as a client of the company would: with a
 * connection's token as the bearer (never the signed-in user's session), so what they prove is what
 * the documentation says. This is why it does not go through lib/api-client, which sends the user's token.
 */
export const sendEndpoint = () => `${runtimeConfig().apiUrl}/api/messages/send`;

/** SPEC 5 "Messages API test": numbers are sent unmasked, digits only (country code, area code, number). */
export const unmask = (number: string) => number.replace(/\D/g, '');

export interface TestSend {
  token: string;
  number: string;
  body: string;
  /** With a file the request is multipart (`medias`), as the documentation shows. */
  file?: File;
}

export async function sendTestMessage({ token, number, body, file }: TestSend): Promise<unknown> {
  let init: RequestInit;
  if (file) {
    const form = new FormData();
    form.append('number', unmask(number));
    form.append('body', body);
    form.append('medias', file, file.name);
    init = { method: 'POST', headers: { Authorization: `Bearer ${token.trim()}` }, body: form };
  } else {
    init = {
      method: 'POST',
      headers: { Authorization: `Bearer ${token.trim()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ number: unmask(number), body }),
    };
  }
  const response = await fetch(sendEndpoint(), init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  if (!response.ok) throw new ApiError(response.status, parsed as never);
  return parsed;
}
