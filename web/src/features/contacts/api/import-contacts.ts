import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { contactKeys } from '../../../lib/lookups/contacts.ts';

/** POST /contacts/import answer (functions/src/domain/contacts/import.ts). */
export interface ImportResult {
  imported: number;
  duplicated: number;
  invalid: { row: number; field: string; message: string }[];
}

/** A row as the server reads a sheet's: the header's names (name/nome, number/numero/telefone..., email). */
export type ImportRow = Record<string, string>;

export interface ParsedSheet {
  fileName: string;
  columns: string[];
  rows: ImportRow[];
}

/** SPEC 5: "Import accepts only .xls and .xlsx."; .csv too (issue 9). */
export const isSpreadsheet = (fileName: string) => /\.(xlsx?|csv)$/i.test(fileName);

/**
 * Reads the first sheet in the browser. The server reads .xlsx itself but refuses legacy .xls (its
 * Lambda ships SheetJS's mini build), so both are read here and posted as JSON rows: one path, and
 * the confirmation can say how many rows will go. SheetJS is loaded on demand (a chunk of its own).
 */
export async function readSpreadsheet(file: File): Promise<ParsedSheet> {
  const { read, utils } = await import('@e965/xlsx');
  const book = read(await file.arrayBuffer(), { type: 'array', dense: true, cellFormula: false, cellHTML: false });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  // Raw values: a phone typed as a number must not come back as its display text ("5.51E+12").
  const table = sheet ? utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '' }) : [];
  const [header = [], ...body] = table;
  const columns = header.map((cell) => String(cell ?? '').trim());
  const rows = body
    .filter((cells) => cells.some((cell) => String(cell ?? '').trim() !== ''))
    .map((cells) => {
      const row: ImportRow = {};
      columns.forEach((column, i) => {
        if (column) row[column] = String(cells[i] ?? '').trim();
      });
      return row;
    });
  return { fileName: file.name, columns: columns.filter(Boolean), rows };
}

export function useImportContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: ImportRow[]) => api<ImportResult>('/contacts/import', { method: 'POST', body: { contacts: rows } }),
    // The import publishes no per-row events: reload the lists.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}

/** POST /contacts/import with no body: the default connection's phone (202; domain/contacts/phone-import-request.ts). */
export interface PhoneImportStarted {
  message: string;
  whatsappId: number;
  importId: string;
}

/** The contacts arrive later, one `company-{id}-contact` create event each (hooks/use-contacts-live.ts). */
export function useImportPhoneContacts() {
  return useMutation({
    mutationFn: () => api<PhoneImportStarted>('/contacts/import', { method: 'POST' }),
  });
}
