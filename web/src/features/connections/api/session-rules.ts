import type { Connection } from '@conversa/functions/contracts';
import { parseISO } from 'date-fns';
import { formatShortDayTime } from '../../../lib/dates.ts';
import type { SessionAction } from './connections.ts';

/** The buttons a status offers (SPEC 4 "Connection status"). */
export function sessionButtonsFor(status: Connection['status']): Array<'qr' | SessionAction | 'connecting'> {
  switch (status) {
    case 'qrcode':
      return ['qr'];
    case 'DISCONNECTED':
      return ['start', 'newQr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
}

/** SPEC 2 "Connections": last update as dd/MM/yy HH:mm (local time), month first in English as every date of the app. */
export function formatUpdatedAt(iso: string | undefined, language?: string): string {
  if (!iso) return '';
  const date = parseISO(iso);
  return Number.isNaN(date.getTime()) ? '' : formatShortDayTime(date, language);
}
