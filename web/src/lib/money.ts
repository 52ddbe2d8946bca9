/**
 * Amounts of money, one helper for every screen that shows one (plans, signup, the subscription
 * wizard, invoices, the PIX step): the platform's currency (BILLING_CURRENCY, BRL) in the user's
 * language's number format, so pt reads R$ 99,90, en R$99.90 and es 99,90 R$. Issue 25: the wizard
 * priced a plan as "COP$ 99.90" while its invoice charged "R$ 99,90".
 */
import { BILLING_CURRENCY } from '@conversa/functions/contracts/billing';
import i18n from 'i18next';
import { numberLocale } from './numbers.ts';

const formats = new Map<string, Intl.NumberFormat>();

function formatFor(language: string | undefined): Intl.NumberFormat {
  const locale = numberLocale(language);
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: BILLING_CURRENCY, currencyDisplay: 'narrowSymbol' });
    formats.set(locale, format);
  }
  return format;
}

/** 99.9 as the language writes it in the platform's currency (its symbol, R$, in every language; Intl's space is non-breaking, so R$ stays by its digits). */
export const formatMoney = (value: number, language: string | undefined = i18n.resolvedLanguage ?? i18n.language): string =>
  formatFor(language).format(value);
