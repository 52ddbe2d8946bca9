/**
 * The dashboard's attendants CSV (SPEC 2, issue 22 §1): its last column says what the table's dot
 * shows (online, away, offline), not a yes/no that read "yes" for an attendant who had walked away.
 */
import type { DashboardAttendant } from '@conversa/functions/contracts/dashboard';
import { describe, expect, it } from 'vitest';
import { attendantsCsv } from '../src/features/dashboard/lib/attendants-csv.ts';

const attendant = (name: string, presence: DashboardAttendant['presence']): DashboardAttendant =>
  ({ id: 1, name, tickets: 3, rating: 2.5, avgSupportTime: 12, online: presence !== 'offline', presence }) as DashboardAttendant;

const headers = { name: 'Atendente', tickets: 'Atendimentos', rating: 'Avaliação', avgSupportTime: 'T.M.', online: 'Status' };
const words = { online: 'Online', away: 'Ausente', offline: 'Offline' };

describe('attendants CSV', () => {
  it('writes each attendant presence in the words given, one row each, ";"-separated with a BOM', () => {
    const csv = attendantsCsv([attendant('Ana', 'online'), attendant('Bruno', 'away'), attendant('Caio', 'offline')], headers, words);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Atendente;Atendimentos;Avaliação;T.M.;Status',
      'Ana;3;2.5;12;Online',
      'Bruno;3;2.5;12;Ausente',
      'Caio;3;2.5;12;Offline',
      '',
    ]);
  });

  it('neutralises a name a spreadsheet would run as a formula', () => {
    const csv = attendantsCsv([attendant('=HYPERLINK("x")', 'online')], headers, words);
    expect(csv).not.toContain(';=HYPERLINK');
    expect(csv.split('\r\n')[1]?.startsWith('=')).toBe(false);
  });
});
