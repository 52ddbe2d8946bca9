/**
 * POST /contacts/import (SPEC 5 "Import accepts only .xls and .xlsx"; .csv too): the first sheet's
 * rows, with a header row naming the columns (name/nome, number/numero/telefone/phone, email/e-mail;
 * case and accents ignored). Each row passes the same rules as POST /contacts; a number already in
 * the tenant is counted as duplicated and left as it is; a bad row is reported with its line and
 * field and nothing is written for it. At most MAX_IMPORT_ROWS rows per file.
 *
 * Two ways in: a multipart .xlsx or .csv file, read here, or JSON `{ contacts: [{ name, number,
 * email }] }` rows a client read from any spreadsheet itself. A legacy .xls (BIFF) file is refused
 * here with a 400 naming the JSON way: the reader build that parses BIFF (SheetJS's ESM build, 371 KB
 * minified for read alone, against the mini build's 280 KB) pushes this Lambda to ~545 KB, past the
 * 500 KB bundle budget, so the web reads .xls in the browser and posts the rows.
 *
 * Its own Lambda (fn 'contacts-import'): the spreadsheet reader (@e965/xlsx's mini build, SheetJS
 * 0.20.3 with its security fixes, no dependencies) stays out of the contacts bundle. No contact events per row:
 * the importing page reloads its list from the answer's counts (and the realtime client would
 * push this bundle past its size budget). The company's webhooks do get one `contact.created` per
 * contact imported (issue 23 §2), emitted together once the rows are done (batched calls,
 * emitWebhookEvents; it never throws, so the answer's counts stand whatever the queue does).
 */
import { ValidationError } from '#commons/errors';
import { createContactSchema, importedNumberSchema } from '#contracts/contact-requests';
import type { Contact } from '#contracts/contacts';
import type { UploadedFile } from '#domain/media/multipart';
import { emitWebhookEvents } from '#domain/webhooks/emit';
import { createContact } from '#storage/contacts/contacts';
import { newContactId } from '#storage/contacts/conversation-ids';

export const MAX_IMPORT_ROWS = 1000;

/** POST /contacts' rules, with a sheet's phone cell read strictly (importedNumberSchema says why). */
const importedContactSchema = createContactSchema.extend({ number: importedNumberSchema });

type SheetJs = typeof import('@e965/xlsx/dist/xlsx.mini.min');

/**
 * The reader (280 KB minified) is imported when a file arrives, not at cold start: JSON rows and
 * the phone import never use it, and with it the import Lambdas' cold start passed 500 KB
 * (`npm run bench:bundles`; it is a chunk of its own, infra/lib/bundling.ts).
 * The mini build is a CommonJS bundle whose exports Node's ESM loader cannot detect: under tsx (the
 * local stack) a named import of `read` fails to link and took the whole handler down with it.
 * Its module.exports is the default export both there and in the esbuild bundle.
 */
async function sheetJs(): Promise<Pick<SheetJs, 'read' | 'utils'>> {
  const module = await import('@e965/xlsx/dist/xlsx.mini.min');
  return (module as unknown as { default: SheetJs }).default;
}

export interface ImportResult {
  imported: number;
  duplicated: number;
  invalid: { row: number; field: string; message: string }[];
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
const columns: Record<string, 'name' | 'number' | 'email'> = {
  name: 'name',
  nome: 'name',
  number: 'number',
  numero: 'number',
  telefone: 'number',
  phone: 'number',
  celular: 'number',
  whatsapp: 'number',
  email: 'email',
  'e-mail': 'email',
};

export async function readRows(file: UploadedFile): Promise<Record<string, unknown>[]> {
  if (/\.xls$/i.test(file.filename)) throw new ValidationError('file', 'Send .xls files as JSON rows ({ contacts: [...] })');
  const csv = /\.csv$/i.test(file.filename);
  if (!csv && !/\.xlsx$/i.test(file.filename)) throw new ValidationError('file', 'Only .xlsx, .xls and .csv files');
  const { read, utils } = await sheetJs();
  let rows: unknown[][];
  try {
    // raw: a CSV's cells stay text, so a long phone number is not read as a float.
    const book = read(file.data, { type: 'buffer', dense: true, cellFormula: false, cellHTML: false, raw: csv });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    // Raw values: a phone typed as a number must not come back as its display text ("5.51E+12").
    rows = sheet ? utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '' }) : [];
  } catch {
    throw new ValidationError('file', 'Unreadable spreadsheet');
  }
  return rowsFromTable(rows);
}

/** Rows from a table whose first row names the columns. */
export function rowsFromTable(rows: unknown[][]): Record<string, unknown>[] {
  const [header = [], ...body] = rows;
  const fields = header.map((cell) => columns[fold(String(cell ?? ''))]);
  if (!fields.includes('name') || !fields.includes('number')) throw new ValidationError('file', 'Header needs name and number columns');
  if (body.length > MAX_IMPORT_ROWS) throw new ValidationError('file', `At most ${MAX_IMPORT_ROWS} rows`);
  return body.map((cells) => {
    const row: Record<string, unknown> = {};
    fields.forEach((field, i) => {
      if (field && row[field] === undefined) row[field] = String(cells[i] ?? '').trim();
    });
    return row;
  });
}

export async function rowsFromFiles(files: UploadedFile[]): Promise<Record<string, unknown>[]> {
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (!file) throw new ValidationError('file', 'Required');
  return readRows(file);
}

/** JSON rows (`contacts`): objects with the same column names as a sheet's header. */
export function rowsFromJson(body: unknown): Record<string, unknown>[] {
  const list = (body as { contacts?: unknown } | undefined)?.contacts;
  if (!Array.isArray(list)) throw new ValidationError('contacts', 'Required');
  if (list.length > MAX_IMPORT_ROWS) throw new ValidationError('contacts', `At most ${MAX_IMPORT_ROWS} rows`);
  const keys = [...new Set(list.flatMap((row) => (row && typeof row === 'object' ? Object.keys(row) : [])))];
  return rowsFromTable([
    keys,
    ...list.map((row) => keys.map((key) => (row && typeof row === 'object' ? (row as Record<string, unknown>)[key] : ''))),
  ]);
}

export async function importContacts(companyId: number, rows: Record<string, unknown>[], now = new Date()): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, duplicated: 0, invalid: [] };
  const created: Contact[] = [];
  try {
    await importRows(companyId, rows, now, result, created);
  } finally {
    // Also when a row failed part-way (a 500): the contacts made before it are made.
    await emitWebhookEvents(
      companyId,
      'contact.created',
      created.map((contact) => ({ contact })),
      now,
    );
  }
  return result;
}

async function importRows(companyId: number, rows: Record<string, unknown>[], now: Date, result: ImportResult, created: Contact[]) {
  for (const [index, row] of rows.entries()) {
    if (!row.name && !row.number) continue; // blank line
    const parsed = importedContactSchema.safeParse({ ...row, email: row.email || '' });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      result.invalid.push({ row: index + 2, field: String(issue?.path[0] ?? 'row'), message: issue?.message ?? 'Invalid' });
      continue;
    }
    const at = now.toISOString();
    const outcome = await createContact({
      id: await newContactId(companyId),
      companyId,
      ...parsed.data,
      profilePicUrl: '',
      isGroup: false,
      whatsappId: null,
      createdAt: at,
      updatedAt: at,
    });
    if ('existingId' in outcome) {
      result.duplicated++;
      continue;
    }
    result.imported++;
    created.push(outcome.created);
  }
}
