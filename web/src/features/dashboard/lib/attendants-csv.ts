import type { DashboardAttendant } from '@conversa/functions/contracts/dashboard';
import type { Presence } from '@conversa/functions/contracts/presence';
import { spreadsheetText } from '../../../lib/spreadsheet-text.ts';

/** A CSV cell: quoted when it holds the separator, a quote or a line break; formula starters neutralised for spreadsheets. */
function cell(value: string | number): string {
  const text = typeof value === 'string' ? spreadsheetText(value) : String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The attendants table as CSV, separator `;` as the contacts export (SPEC 9), with the headers given;
 * the last column says what the table's dot shows (online, away, offline), in the words given.
 */
export function attendantsCsv(
  attendants: DashboardAttendant[],
  headers: { name: string; tickets: string; rating: string; avgSupportTime: string; online: string },
  presenceWords: Record<Presence, string>,
): string {
  const rows = [
    [headers.name, headers.tickets, headers.rating, headers.avgSupportTime, headers.online],
    ...attendants.map((a) => [a.name, a.tickets, a.rating ?? '', a.avgSupportTime, presenceWords[a.presence]]),
  ];
  return `\uFEFF${rows.map((row) => row.map(cell).join(';')).join('\r\n')}\r\n`;
}

/** Offers `text` as a download named `fileName`. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
