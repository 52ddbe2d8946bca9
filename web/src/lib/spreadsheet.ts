/**
 * Spreadsheets read in the browser (the contacts import and a contact list's import): the server
 * reads .xlsx itself but refuses legacy .xls (its Lambda ships SheetJS's mini build), so both are
 * read here and posted as JSON rows: one path, and the confirmation can say how many rows will go.
 * SheetJS is loaded on demand (a chunk of its own).
 */

/** A row as the server reads a sheet's: the header's names (name/nome, number/numero/telefone..., email). */
export type ImportRow = Record<string, string>;

export interface ParsedSheet {
  fileName: string;
  columns: string[];
  rows: ImportRow[];
}

/** SPEC 5: "Import accepts only .xls and .xlsx."; .csv too (issue 9). */
export const isSpreadsheet = (fileName: string) => /\.(xlsx?|csv)$/i.test(fileName);

/** Reads the first sheet: a header row naming the columns, then one row per contact (blank lines skipped). */
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

/**
 * Builds an .xlsx in the browser and downloads it (the sample spreadsheet of SPEC 2 "Contact lists"):
 * no file to host, and its columns are exactly the ones the import reads.
 */
export async function downloadSpreadsheet(fileName: string, rows: (string | number)[][]): Promise<void> {
  const { utils, writeFile } = await import('@e965/xlsx');
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  writeFile(book, fileName);
}
