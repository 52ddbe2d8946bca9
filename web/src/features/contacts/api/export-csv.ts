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

/** Saves text as a file through a temporary link (the browser's download). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A BOM so spreadsheet programs read the accents as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
