/**
 * POST /contacts/import through the local stack's HTTP gateway, where handlers run under tsx as
 * `npm start` runs them: JSON rows (the web's way, for .xls and .xlsx alike), an .xlsx and a .csv
 * file read by the server, and an .xls read as the web reads it. The spreadsheets are written by the
 * same library the app reads them with.
 */
import { randomInt } from 'node:crypto';
import { read, utils, write } from '@e965/xlsx';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let tenant: Tenant;
/** Numbers of this run: a per-run prefix keeps reruns on the same stack from meeting their own contacts. */
const prefix = `55119${String(randomInt(10_000)).padStart(4, '0')}`;
const number = (n: number) => `${prefix}${String(n).padStart(4, '0')}`;

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'import');
});

function workbook(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  return write(book, { type: 'buffer', bookType }) as Buffer;
}

async function upload(data: Buffer, filename: string): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  const res = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/contacts/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.admin.token}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

const importRows = (contacts: Record<string, string>[]) =>
  call('POST', '/contacts/import', { token: tenant.admin.token, body: { contacts } });

async function contactNamed(name: string): Promise<{ name: string; number: string } | undefined> {
  const res = await call('GET', '/contacts', { token: tenant.admin.token, query: { searchParam: name } });
  return (res.body as { contacts: { name: string; number: string }[] }).contacts.find((contact) => contact.name === name);
}

describe('POST /contacts/import over the gateway', () => {
  it('imports JSON rows (it answered 500 under tsx: the reader was imported by a name Node could not link)', async () => {
    const res = await importRows([
      { nome: 'Json Ana', telefone: number(1) },
      { nome: 'J', telefone: number(2) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 1, duplicated: 0, invalid: [{ row: 3, field: 'name', message: 'Too Short!' }] });
    expect((await contactNamed('Json Ana'))?.number).toBe(number(1));
  });

  it('imports an .xlsx file', async () => {
    const file = workbook(
      [
        ['Nome', 'Número', 'E-mail'],
        // A phone typed as a number, as spreadsheets often hold them.
        ['Xlsx Bruno', Number(number(3)), 'bruno@x.com'],
        ['Json Ana', number(1), ''],
      ],
      'xlsx',
    );
    const res = await upload(file, 'contatos.xlsx');
    expect(res).toEqual({ status: 200, body: { imported: 1, duplicated: 1, invalid: [] } });
    expect((await contactNamed('Xlsx Bruno'))?.number).toBe(number(3));
  });

  it('imports a .csv file, its long numbers kept as written', async () => {
    const res = await upload(Buffer.from(`name;number\nCsv Carla;${number(4)}\n`), 'contatos.csv');
    expect(res).toEqual({ status: 200, body: { imported: 1, duplicated: 0, invalid: [] } });
    expect((await contactNamed('Csv Carla'))?.number).toBe(number(4));
  });

  it('imports an .xls read as the web reads it, and refuses the .xls file itself with a 400, not a 500', async () => {
    const file = workbook(
      [
        ['name', 'number'],
        ['Xls Davi', Number(number(5))],
      ],
      'biff8',
    );
    // web/src/features/contacts/api/import-contacts.ts: the browser reads the sheet and posts its rows.
    const book = read(file, { type: 'buffer', dense: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    const [header = [], ...body] = sheet ? utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '' }) : [];
    const rows = body.map((cells) => Object.fromEntries(header.map((column, i) => [String(column), String(cells[i] ?? '')])));
    const res = await importRows(rows);
    expect(res).toMatchObject({ status: 200, body: { imported: 1, duplicated: 0, invalid: [] } });
    expect((await contactNamed('Xls Davi'))?.number).toBe(number(5));

    const direct = await upload(file, 'contatos.xls');
    expect(direct).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', field: 'file' } });
  });
});
