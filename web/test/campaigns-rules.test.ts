/**
 * The campaign screens' pure rules (SPEC 2 "Campaigns", "Campaign report", "List contacts", 4
 * "Campaign", 5, 7): a sheet goes in chunks whose refused rows keep the sheet's line numbers, the
 * settings' JSON records read back with defaults, the report's percentage of delivered over valid,
 * the actions by status, no save button where the API refuses the change, the schedule's round trip, and
 * every campaign string present in the three languages.
 */
import type { Campaign } from '@conversa/functions/contracts/campaigns';
import { describe, expect, it } from 'vitest';
import {
  campaignProgress,
  canCancel,
  canRestart,
  fromLocalInput,
  settingsFromRecords,
  showsSave,
  toLocalInput,
} from '../src/features/campaigns/api/campaign-rules.ts';
import { chunkRows, IMPORT_CHUNK_ROWS, mergeUploadResult } from '../src/features/contact-lists/api/list-import.ts';
import { campaignErrorLocales, campaignsLocales } from '../src/i18n/locales/campaigns.ts';

const campaign = (overrides: Partial<Campaign>) => ({ status: 'INATIVA', editable: true, ...overrides }) as Campaign;

function leaves(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

describe('a contact list import in chunks', () => {
  it('splits 450 rows into requests of at most IMPORT_CHUNK_ROWS, none lost', () => {
    // Prepare
    const rows = Array.from({ length: 450 }, (_, i) => i);
    // Act
    const chunks = chunkRows(rows);
    // Assess
    expect(chunks.map((c) => c.length)).toEqual([IMPORT_CHUNK_ROWS, IMPORT_CHUNK_ROWS, 50]);
    expect(chunks.flat()).toEqual(rows);
  });

  it('adds the counts and numbers a refused row by its line in the sheet, not in its request', () => {
    // Prepare: the second request's first row (line 2 of that request) is line 202 of the sheet
    const first = { imported: 199, duplicated: 1, invalid: [] };
    const second = { imported: 0, duplicated: 0, invalid: [{ row: 2, field: 'number', message: 'Too Short!' }] };
    // Act
    const total = mergeUploadResult(mergeUploadResult({ imported: 0, duplicated: 0, invalid: [] }, first, 0), second, 200);
    // Assess
    expect(total).toEqual({ imported: 199, duplicated: 1, invalid: [{ row: 202, field: 'number', message: 'Too Short!' }] });
  });
});

describe('campaign settings records', () => {
  it('reads the JSON values and keeps the defaults for what is missing or unreadable', () => {
    // Act
    const settings = settingsFromRecords([
      { key: 'messageInterval', value: '5' },
      { key: 'greaterInterval', value: 'not json' },
      { key: 'variables', value: JSON.stringify([{ key: 'loja', value: 'Centro' }]) },
    ]);
    // Assess
    expect(settings).toEqual({
      messageInterval: 5,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [{ key: 'loja', value: 'Centro' }],
    });
    expect(settingsFromRecords(undefined).messageInterval).toBe(20);
  });
});

describe('the campaign report and actions', () => {
  it('shows delivered over valid contacts as a percentage, full once FINALIZADA', () => {
    expect(campaignProgress(campaign({ status: 'EM_ANDAMENTO', progress: { valid: 8, delivered: 2 } } as never)).percent).toBe(25);
    expect(campaignProgress(campaign({ status: 'EM_ANDAMENTO' })).percent).toBe(0);
    expect(campaignProgress(campaign({ status: 'FINALIZADA', progress: { valid: 0, delivered: 0 } } as never)).percent).toBe(100);
  });

  it('offers stop only while EM_ANDAMENTO and restart only when CANCELADA', () => {
    expect(canCancel(campaign({ status: 'EM_ANDAMENTO' }))).toBe(true);
    expect(canCancel(campaign({ status: 'PROGRAMADA' }))).toBe(false);
    expect(canRestart(campaign({ status: 'CANCELADA' }))).toBe(true);
    expect(canRestart(campaign({ status: 'FINALIZADA' }))).toBe(false);
  });

  it('offers save only for a new or an editable campaign: the API refuses a CANCELADA one (SPEC 4)', () => {
    expect(showsSave(undefined)).toBe(true);
    expect(showsSave(campaign({ status: 'PROGRAMADA', editable: true }))).toBe(true);
    expect(showsSave(campaign({ status: 'CANCELADA', editable: false }))).toBe(false);
    expect(showsSave(campaign({ status: 'PROGRAMADA', editable: false }))).toBe(false);
    expect(showsSave(campaign({ status: 'EM_ANDAMENTO', editable: false }))).toBe(false);
  });

  it('sends the schedule as an instant with seconds and shows it back as the same local time', () => {
    // Act
    const sent = fromLocalInput('2030-03-04T10:30');
    // Assess
    expect(sent).toBe(new Date(2030, 2, 4, 10, 30, 0).toISOString());
    expect(toLocalInput(sent as string)).toBe('2030-03-04T10:30');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('amanhã')).toBeNull();
  });
});

describe('campaign strings', () => {
  it('exist in en and pt for every Spanish key, none empty', () => {
    const keys = leaves(campaignsLocales.es).sort();
    for (const locale of [campaignsLocales.en, campaignsLocales.pt]) {
      expect(leaves(locale).sort()).toEqual(keys);
      for (const key of leaves(locale))
        expect(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], locale)).not.toBe('');
    }
    expect(Object.keys(campaignErrorLocales.pt).sort()).toEqual(Object.keys(campaignErrorLocales.es).sort());
  });
});
