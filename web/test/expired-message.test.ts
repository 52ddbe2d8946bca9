/**
 * The expiry refusal of SPEC 5 "Login" in the chosen language (issue 25 minor: the login page showed
 * the server's Spanish words whatever the language): ERR_COMPANY_EXPIRED is worded by the app from
 * its dueDate, the date in the language's order; Spanish keeps the spec's own text. A body without a
 * dueDate still shows the server's message.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { type Language, lazyLocales } from '../src/i18n/index.ts';
import { ApiError } from '../src/lib/api-client.ts';
import { errorMessage } from '../src/lib/errors.ts';

function load(language: Language): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const read = lazyLocales.read as (l: string, ns: string, cb: (error: unknown, data: unknown) => void) => void;
    read(language, 'translation', (error, data) => (error ? reject(error) : resolve(data as Record<string, unknown>)));
  });
}

async function translator(language: Language) {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, resources: { [language]: { translation: await load(language) } } });
  return instance;
}

const spanish = '¡Opss! Tu suscripción venció el 05/03/2026. Para más información, contacta al soporte técnico.';
const expired = new ApiError(402, { error: 'ERR_COMPANY_EXPIRED', dueDate: '2026-03-05', message: spanish } as never);

describe('the expired company refusal', () => {
  it.each([
    ['pt', 'Opa! Sua assinatura venceu em 05/03/2026. Para mais informações, entre em contato com o suporte técnico.'],
    ['en', 'Oops! Your subscription expired on 03/05/2026. For more information, contact technical support.'],
    ['es', spanish],
  ] as const)('%s: %s', async (language, words) => {
    const i18n = await translator(language);
    expect(errorMessage(expired, i18n.t, (key) => i18n.exists(key), language)).toBe(words);
  });

  it("keeps the server's message when no dueDate came with it", async () => {
    const i18n = await translator('en');
    const bare = new ApiError(402, { error: 'ERR_COMPANY_EXPIRED', message: spanish } as never);
    expect(errorMessage(bare, i18n.t, (key) => i18n.exists(key), 'en')).toBe(spanish);
  });
});
