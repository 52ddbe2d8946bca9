import { messages } from '@conversa/functions/contracts/form-messages';
import type { TFunction } from 'i18next';

/** The contracts word validation messages in the spec's English; the UI shows their translation. */
const messageKeys: Record<string, string> = Object.fromEntries(Object.entries(messages).map(([key, text]) => [text, `validation.${key}`]));

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/** Maps a failed zod parse of a contract schema to one translated message per field. */
export function fieldErrors<T>(issues: readonly IssueLike[], t: TFunction): FieldErrors<T> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (errors[field]) continue;
    const key = messageKeys[issue.message];
    errors[field] = key ? t(key) : issue.message;
  }
  return errors as FieldErrors<T>;
}
