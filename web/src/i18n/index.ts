import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, storageKeys, writeStorage } from '../lib/storage.ts';
import { zeroTakesPlural } from './plural-zero.ts';

export const languages = ['pt', 'en', 'es'] as const;
export type Language = (typeof languages)[number];
/** SPEC 1: Spanish is the fallback. */
export const fallbackLanguage: Language = 'es';

/** SPEC 1: the stored `ptBR` (and browser tags like `pt-BR`, `en-US`) select our three locales. */
export function normaliseLanguage(value: string | null | undefined): Language | undefined {
  const tag = value?.toLowerCase().replace(/[-_]/g, '');
  if (!tag) return undefined;
  if (tag.startsWith('pt')) return 'pt';
  if (tag.startsWith('en')) return 'en';
  if (tag.startsWith('es')) return 'es';
  return undefined;
}

function initialLanguage(): Language {
  return normaliseLanguage(readStorage(storageKeys.language)) ?? normaliseLanguage(navigator.language) ?? fallbackLanguage;
}

/**
 * Locales are separate chunks, loaded on demand: a user downloads one language (plus the fallback).
 * Exported for the plural test (web/test/i18n-plurals.test.ts), which reads them as the app does.
 */
export const lazyLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const loaders: Record<Language, () => Promise<{ default: object }>> = {
      pt: () => import('./locales/pt.ts'),
      en: () => import('./locales/en.ts'),
      es: () => import('./locales/es.ts'),
    };
    const load = loaders[language as Language];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (module) => {
        const resources = module.default as Record<string, unknown>;
        callback(null, language === 'pt' ? zeroTakesPlural(resources) : resources);
      },
      (error: unknown) => callback(error as Error, false),
    );
  },
};

export async function initI18n(): Promise<typeof i18n> {
  await i18n
    .use(lazyLocales)
    .use(initReactI18next)
    .init({
      lng: initialLanguage(),
      fallbackLng: fallbackLanguage,
      supportedLngs: [...languages],
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
  document.documentElement.lang = i18n.language;
  return i18n;
}

export async function changeLanguage(language: Language): Promise<void> {
  writeStorage(storageKeys.language, language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

export { i18n };
