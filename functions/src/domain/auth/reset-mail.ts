/**
 * The password-reset mail (SPEC 4 "Password reset", step one), in the product's languages: pt by
 * default, en and es when the request says the reader prefers them (the browser's Accept-Language:
 * the server stores no language for a user). Plain text, with a simple HTML twin.
 */

export const MAIL_LANGUAGES = ['pt', 'en', 'es'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** The first of pt, en, es in an Accept-Language header, by its weights; pt when none is named. */
export function preferredLanguage(acceptLanguage: string | undefined): MailLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((param) => param.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { language: tag.trim().slice(0, 2).toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (
    ranked
      .map((entry) => entry.language)
      .find((language): language is MailLanguage => (MAIL_LANGUAGES as readonly string[]).includes(language)) ?? 'pt'
  );
}

interface Wording {
  subject: string;
  greeting: (name: string) => string;
  asked: (email: string) => string;
  yourCode: string;
  validity: (minutes: number) => string;
  notYou: string;
}

const WORDING: Record<MailLanguage, Wording> = {
  pt: {
    subject: 'Seu código para redefinir a senha do Conversa',
    greeting: (name) => `Olá, ${name}!`,
    asked: (email) => `Recebemos um pedido para redefinir a senha da conta ${email} no Conversa.`,
    yourCode: 'Seu código de verificação:',
    validity: (minutes) => `Ele vale por ${minutes} minutos e pode ser usado uma única vez.`,
    notYou: 'Se não foi você quem pediu, ignore este e-mail: sua senha continua a mesma.',
  },
  en: {
    subject: 'Your code to reset your Conversa password',
    greeting: (name) => `Hello, ${name}!`,
    asked: (email) => `We received a request to reset the password of the Conversa account ${email}.`,
    yourCode: 'Your verification code:',
    validity: (minutes) => `It is valid for ${minutes} minutes and can be used only once.`,
    notYou: 'If you did not ask for it, ignore this e-mail: your password stays the same.',
  },
  es: {
    subject: 'Su código para restablecer la contraseña de Conversa',
    greeting: (name) => `¡Hola, ${name}!`,
    asked: (email) => `Recibimos una solicitud para restablecer la contraseña de la cuenta ${email} en Conversa.`,
    yourCode: 'Su código de verificación:',
    validity: (minutes) => `Es válido durante ${minutes} minutos y se puede usar una sola vez.`,
    notYou: 'Si no fue usted quien lo solicitó, ignore este correo: su contraseña sigue siendo la misma.',
  },
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function resetCodeMail(input: { language: MailLanguage; name: string; email: string; code: string; minutes: number }): ComposedMail {
  const w = WORDING[input.language];
  const name = input.name.trim() || input.email;
  const text = [
    w.greeting(name),
    '',
    w.asked(input.email),
    '',
    `${w.yourCode} ${input.code}`,
    '',
    w.validity(input.minutes),
    w.notYou,
    '',
  ].join('\n');
  const html = [
    `<!doctype html><html lang="${input.language}"><body style="font-family:Arial,sans-serif;color:#222">`,
    `<p>${escapeHtml(w.greeting(name))}</p>`,
    `<p>${escapeHtml(w.asked(input.email))}</p>`,
    `<p>${escapeHtml(w.yourCode)}</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(input.code)}</p>`,
    `<p>${escapeHtml(w.validity(input.minutes))}<br>${escapeHtml(w.notYou)}</p>`,
    '</body></html>',
  ].join('');
  return { subject: w.subject, text, html };
}
