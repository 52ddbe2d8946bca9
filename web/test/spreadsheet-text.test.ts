/**
 * Exports carry names from outside (imported contact lists): a name that begins like a formula must
 * not run when the CSV is opened in a spreadsheet (the campaign recipients' and attendants' exports).
 */
import { describe, expect, it } from 'vitest';
import { spreadsheetText } from '../src/lib/spreadsheet-text.ts';

describe('spreadsheetText', () => {
  it('neutralises formula starters and leaves other text alone', () => {
    expect(spreadsheetText('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    for (const start of ['+', '-', '@', '\t', '\r']) expect(spreadsheetText(`${start}1`)).toBe(`'${start}1`);
    expect(spreadsheetText('Ana Lima')).toBe('Ana Lima');
    expect(spreadsheetText('')).toBe('');
  });
});
