/**
 * The Contacts and Quick messages screens' pure rules: the contatos.csv text (SPEC 2/9: `;`), the
 * spreadsheet reading that feeds the import (.xls included, SPEC 5), the live contact cache, and
 * the quick message dialog's insert-at-cursor.
 */
import type { Contact } from '@conversa/functions/contracts/contacts';
import { utils, write } from '@e965/xlsx';
import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { contactsCsv } from '../src/features/contacts/api/export-csv.ts';
import { isSpreadsheet, readSpreadsheet } from '../src/features/contacts/api/import-contacts.ts';
import { insertAt } from '../src/features/quick-messages/components/insert-at-cursor.ts';
import { applyContactEvent, type ContactsPage, contactKeys, contactSearchParam } from '../src/lib/lookups/contacts.ts';

const contact = (overrides: Partial<Contact>): Contact => ({
  id: 1,
  companyId: 1,
  name: 'Ana',
  number: '5511999990001',
  email: '',
  profilePicUrl: '',
  isGroup: false,
  extraInfo: [],
  whatsappId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('contacts CSV export', () => {
  it('writes a header and one ;-separated line per contact, quoting what would break the columns', () => {
    const csv = contactsCsv([
      { name: 'Ana', number: '5511999990001', email: 'ana@example.com' },
      { name: 'Silva; Bruno "B"', number: '5511999990002', email: '' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'name;number;email',
      'Ana;5511999990001;ana@example.com',
      '"Silva; Bruno ""B""";5511999990002;',
      '',
    ]);
  });
});

describe('spreadsheet import reading', () => {
  const sheetFile = (bookType: 'xlsx' | 'biff8', name: string) => {
    const book = utils.book_new();
    utils.book_append_sheet(
      book,
      utils.aoa_to_sheet([
        ['Nome', 'Número', 'E-mail'],
        ['Carla', '5511988887777', 'carla@example.com'],
        ['', '', ''],
        ['Davi', '5511977776666', ''],
      ]),
      'Contatos',
    );
    const bytes = write(book, { bookType, type: 'array' }) as ArrayBuffer;
    return new File([bytes], name);
  };

  it('reads .xlsx and legacy .xls alike into rows named by the header, skipping blank lines', async () => {
    for (const file of [sheetFile('xlsx', 'contatos.xlsx'), sheetFile('biff8', 'contatos.xls')]) {
      const sheet = await readSpreadsheet(file);
      expect(sheet.columns).toEqual(['Nome', 'Número', 'E-mail']);
      expect(sheet.rows).toEqual([
        { Nome: 'Carla', Número: '5511988887777', 'E-mail': 'carla@example.com' },
        { Nome: 'Davi', Número: '5511977776666', 'E-mail': '' },
      ]);
    }
  });

  // .csv joined .xls and .xlsx in 319f743 (read as text, as the server reads it).
  it('accepts only .xls, .xlsx and .csv names', () => {
    expect(['a.xls', 'b.XLSX', 'c.csv'].map(isSpreadsheet)).toEqual([true, true, true]);
    expect(['d.txt', 'e.xlsx.exe', 'xls', 'f.csv.js'].map(isSpreadsheet)).toEqual([false, false, false, false]);
  });
});

describe('contacts cache', () => {
  it('searches from 3 characters only (SPEC 5)', () => {
    expect(contactSearchParam(' an ')).toBe('');
    expect(contactSearchParam(' ana ')).toBe('ana');
  });

  it('patches a listed contact and drops a deleted one from every list', () => {
    const client = new QueryClient();
    const page: ContactsPage = { contacts: [contact({ id: 1 }), contact({ id: 2, name: 'Bia' })], hasMore: false, count: 2 };
    client.setQueryData<InfiniteData<ContactsPage>>(contactKeys.list(''), { pages: [page], pageParams: [{ pageNumber: 1 }] });

    applyContactEvent(client, { action: 'update', contact: contact({ id: 2, name: 'Beatriz' }) });
    const names = () => client.getQueryData<InfiniteData<ContactsPage>>(contactKeys.list(''))?.pages[0]?.contacts.map((c) => c.name);
    expect(names()).toEqual(['Ana', 'Beatriz']);
    expect(client.getQueryData<Contact>(contactKeys.detail(2))?.name).toBe('Beatriz');

    applyContactEvent(client, { action: 'delete', contactId: 1 });
    expect(names()).toEqual(['Beatriz']);
  });
});

describe('insert at cursor', () => {
  it('replaces the selection and puts the caret after the snippet', () => {
    expect(insertAt('Olá , tudo bem?', '{{name}}', 4, 4)).toEqual({ text: 'Olá {{name}}, tudo bem?', caret: 12 });
    expect(insertAt('Olá XXX!', '{{name}}', 4, 7)).toEqual({ text: 'Olá {{name}}!', caret: 12 });
    expect(insertAt('abc', 'x', 10, 12)).toEqual({ text: 'abcx', caret: 4 });
  });
});
