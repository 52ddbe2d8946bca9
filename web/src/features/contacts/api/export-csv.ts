import type { Contact } from '@conversa/functions/contracts/contacts';

/** SPEC 2/9: the export is `contatos.csv`, separated by `;`. */
export const CONTACTS_CSV_NAME = 'contatos.csv';
const SEPARATOR = ';';

const cell = (value: string) => (/[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** name;number;email with a header row; fields holding the separator, quotes or newlines are quoted. */
export function contactsCsv(contacts: Array<Pick<Contact, 'name' | 'number' | 'email'>>): string {
  const lines = [['name', 'number', 'email'], ...contacts.map((c) => [c.name, c.number, c.email ?? ''])];
  return `${lines.map((line) => line.map(cell).join(SEPARATOR)).join('\r\n')}\r\n`;
}

/** Shared with the other exports (lib/download.ts); re-exported for the contacts page. */
export { downloadText } from '../../../lib/download.ts';
