import type { ContactListUploadResult } from '@conversa/functions/contracts/contact-lists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { contactListKeys } from '../../../lib/lookups/contact-lists.ts';
import { downloadSpreadsheet, type ImportRow } from '../../../lib/spreadsheet.ts';

/**
 * Rows per POST /contact-lists/{id}/upload: well under the server's 1,000 a request, so a big sheet
 * goes in several requests and the dialog can show real progress between them.
 */
export const IMPORT_CHUNK_ROWS = 200;

/** Splits the rows into the requests that carry them. */
export function chunkRows<T>(rows: T[], size = IMPORT_CHUNK_ROWS): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * Adds one chunk's answer to the running total. The server numbers a refused row by its line in the
 * request (header = line 1); the sheet's line is that plus the rows of the chunks before it.
 */
export function mergeUploadResult(
  total: ContactListUploadResult,
  part: ContactListUploadResult,
  rowsBefore: number,
): ContactListUploadResult {
  return {
    imported: total.imported + part.imported,
    duplicated: total.duplicated + part.duplicated,
    invalid: [...total.invalid, ...part.invalid.map((row) => ({ ...row, row: row.row + rowsBefore }))],
  };
}

export interface ListImport {
  contactListId: number;
  rows: ImportRow[];
  /** Rows sent so far, after each request. */
  onProgress: (sent: number) => void;
}

/** POSTs the sheet's rows in chunks, reporting progress; the list's contacts reload once at the end. */
export function useImportToContactList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ contactListId, rows, onProgress }: ListImport) => {
      let total: ContactListUploadResult = { imported: 0, duplicated: 0, invalid: [] };
      let sent = 0;
      onProgress(0);
      for (const chunk of chunkRows(rows)) {
        const part = await api<ContactListUploadResult>(`/contact-lists/${contactListId}/upload`, {
          method: 'POST',
          body: { contacts: chunk },
        });
        total = mergeUploadResult(total, part, sent);
        sent += chunk.length;
        onProgress(sent);
      }
      return total;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactListKeys.all }),
  });
}

/** SPEC 2 "Contact lists: download sample spreadsheet": the columns the import reads, with two example rows. */
export const downloadSampleSheet = () =>
  downloadSpreadsheet('planilha-exemplo.xlsx', [
    ['nome', 'numero', 'email'],
    ['Maria Silva', '5511999990001', 'maria@exemplo.com'],
    ['João Souza', '5521988880002', ''],
  ]);
