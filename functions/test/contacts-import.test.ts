/**
 * POST /contacts/import over DynamoDB Local + cognito-local with real .xlsx, .xls and .csv files written by
 * the same reader (and JSON rows): rows imported with digits-only numbers, taken numbers counted as duplicated and
 * left alone, bad rows reported by line and field, other formats and headerless sheets refused.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { utils, write } from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getContactByNumber } from '#storage/contacts/contacts';
import { newList } from './campaigns-harness.ts';
import { invoke, multipart } from './messages-harness.ts';
import { call, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

let stack: Stack;
let t: Tenant;

beforeAll(async () => {
  stack = await startStack();
  t = await seedTenant(stack);
}, 90_000);
afterAll(async () => stack?.stop());

function sheet(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(rows), 'Contatos');
  return write(book, { type: 'buffer', bookType }) as Buffer;
}

const upload = (data: Buffer, filename: string, token = t.admin.token) =>
  invoke('POST /contacts/import', {
    token,
    raw: multipart([{ name: 'file', value: data, filename, contentType: 'application/octet-stream' }]),
  });

describe('contacts import', () => {
  it("loads under plain Node + tsx, as `npm start` runs it (vitest's own loader hid a named import Node cannot link)", () => {
    const handler = fileURLToPath(new URL('../src/handlers/http/contacts-import.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `await import(${JSON.stringify(handler)})`], {
      encoding: 'utf8',
    });
    expect(run.stderr).not.toContain('SyntaxError');
    expect(run.status).toBe(0);
  }, 30_000);

  it('imports an .xlsx, skips taken numbers and reports bad rows', async () => {
    const taken = await call('POST /contacts', { token: t.admin.token, body: { name: 'Já existe', number: '5511955550001' } });
    expect(taken.status).toBe(201);
    const file = sheet(
      [
        ['Nome', 'Número', 'E-mail'],
        ['Ana Lima', '+55 (11) 95555-0002', 'ana@x.com'],
        ['Bruno', '5511955550003', ''],
        ['Duplicado', '5511955550001', ''],
        ['X', '5511955550004', ''],
        ['Carla', '123', ''],
        ['', '', ''],
        ['Davi', '5511955550005', 'not-an-email'],
      ],
      'xlsx',
    );
    const res = await upload(file, 'contatos planilha.xlsx', (await t.addUser('user')).token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 2,
      duplicated: 1,
      invalid: [
        { row: 5, field: 'name', message: 'Too Short!' },
        { row: 6, field: 'number', message: 'Too Short!' },
        { row: 8, field: 'email', message: 'Invalid email' },
      ],
    });
    expect(await getContactByNumber(t.companyId, '5511955550002')).toMatchObject({ name: 'Ana Lima', email: 'ana@x.com' });
    expect((await getContactByNumber(t.companyId, '5511955550001'))?.name).toBe('Já existe');
    expect(await getContactByNumber(t.companyId, '5511955550004')).toBeUndefined();
  });

  it('takes .xls as JSON rows read by the client, and refuses the .xls file itself with a 400', async () => {
    const xls = await upload(
      sheet(
        [
          ['name', 'number'],
          ['Eva Xls', '5511955550010'],
        ],
        'biff8',
      ),
      'old.xls',
    );
    expect(xls.body).toMatchObject({ error: 'ERR_VALIDATION', field: 'file' });
    const rows = await invoke('POST /contacts/import', {
      token: t.admin.token,
      json: {
        contacts: [
          { nome: 'Eva Xls', telefone: '55 11 95555-0010' },
          { nome: 'E', telefone: '5511955550011' },
        ],
      },
    });
    expect(rows.body).toEqual({ imported: 1, duplicated: 0, invalid: [{ row: 3, field: 'name', message: 'Too Short!' }] });
    expect((await getContactByNumber(t.companyId, '5511955550010'))?.name).toBe('Eva Xls');
    expect((await invoke('POST /contacts/import', { token: t.admin.token, json: { contacts: 'x' } })).status).toBe(400);
  });

  it('imports a .csv, comma or semicolon separated, keeping long numbers as written', async () => {
    const semicolons = await upload(
      Buffer.from('\ufeffNome;Telefone;E-mail\nFábio Csv;5511955550020;fabio@x.com\nG;5511955550021;\n'),
      'contatos.csv',
    );
    expect(semicolons).toMatchObject({ status: 200, body: { imported: 1, duplicated: 0, invalid: [{ row: 3, field: 'name' }] } });
    expect(await getContactByNumber(t.companyId, '5511955550020')).toMatchObject({ name: 'Fábio Csv', email: 'fabio@x.com' });
    const commas = await upload(Buffer.from('name,number\n"Lima, Helena",5511955550022\n'), 'export.CSV');
    expect(commas.body).toEqual({ imported: 1, duplicated: 0, invalid: [] });
    expect((await getContactByNumber(t.companyId, '5511955550022'))?.name).toBe('Lima, Helena');
  });

  it('refuses a cell that is not one phone number, says which row, and a contact list import refuses the same rows', async () => {
    // Prepare: what spreadsheets hold in a phone column besides phones (issue 25)
    const rows = [
      { name: 'Bom Numero', number: '+55 (11) 95555-0030' },
      { name: 'Sem Digitos', number: 'não tem' },
      { name: 'Com Ramal', number: '11 95555-0031 ramal 12' },
      { name: 'Notacao Excel', number: '5.51196E+12' },
      { name: 'Dois Numeros', number: '5511955550032 / 5511955550033' },
      { name: 'Com Zero', number: '011955550034' },
      { name: 'Zeros', number: '00000000' },
    ];
    const refused = [2, 3, 4, 5, 6, 7].map((row) => ({ row: row + 1, field: 'number', message: 'Invalid number' }));
    // Act
    const res = await invoke('POST /contacts/import', { token: t.admin.token, json: { contacts: rows } });
    // Assess: only the phone is a contact; each other row is named with its line and why
    expect(res.body).toEqual({ imported: 1, duplicated: 0, invalid: refused });
    expect((await getContactByNumber(t.companyId, '5511955550030'))?.name).toBe('Bom Numero');
    for (const digits of ['1195555003112', '551196', '55119555500325511955550033', '011955550034', '00000000']) {
      expect(await getContactByNumber(t.companyId, digits)).toBeUndefined();
    }
    // The contact lists' import reads the same rows the same way
    const list = await newList(t, 'Mesma regra');
    const upload = await invoke('POST /contact-lists/{id}/upload', {
      token: t.admin.token,
      params: { id: list.id },
      json: { contacts: rows },
    });
    expect(upload.body).toEqual({ imported: 1, duplicated: 0, invalid: refused });
  });

  it('refuses other formats, unreadable files, missing columns and JSON bodies with a 400', async () => {
    expect((await upload(Buffer.from('name;number\nA;1'), 'contatos.txt')).body).toMatchObject({ error: 'ERR_VALIDATION', field: 'file' });
    expect((await upload(Buffer.from('garbage'), 'broken.xlsx')).status).toBe(400);
    expect(
      (
        await upload(
          sheet(
            [
              ['foo', 'bar'],
              ['a', 'b'],
            ],
            'xlsx',
          ),
          'x.xlsx',
        )
      ).status,
    ).toBe(400);
    expect((await invoke('POST /contacts/import', { token: t.admin.token, json: {} })).status).toBe(400);
  });
});
