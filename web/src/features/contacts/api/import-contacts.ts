import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { contactKeys } from '../../../lib/lookups/contacts.ts';
import type { ImportRow } from '../../../lib/spreadsheet.ts';

/** POST /contacts/import answer (functions/src/domain/contacts/import.ts). */
export interface ImportResult {
  imported: number;
  duplicated: number;
  invalid: { row: number; field: string; message: string }[];
}

/** The sheet is read in the browser (lib/spreadsheet.ts, shared with a contact list's import). */
export { type ImportRow, isSpreadsheet, type ParsedSheet, readSpreadsheet } from '../../../lib/spreadsheet.ts';

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
