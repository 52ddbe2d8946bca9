/**
 * The session actions of the Connections page (SPEC 7 "Connections"): try again (start), new QR,
 * disconnect (logout). The session-host does the work and reports states; the API records only
 * the state it causes itself: OPENING when it asks for a (re)start, so the page shows the
 * Connecting spinner at once.
 */

import type { ConnectionStatus } from '#contracts/connections';
import { recordAudit } from '#domain/audit/record';
import { lifecycleCommand, sendSessionCommand } from '#domain/messages/session-commands';
import * as store from '#storage/connections';
import { findConnection } from './connections.ts';
import { publishSession } from './events.ts';

type SessionAction = 'start' | 'newQr' | 'logout';

/**
 * OPENING is written before the command goes out: the host may answer (a QR) within milliseconds,
 * and a later OPENING would hide it. If the command cannot be sent, the previous state is restored
 * and the error surfaces, so the page never spins on a command nobody received.
 */
async function openAndSend(companyId: number, id: number, kind: SessionAction): Promise<void> {
  const current = await findConnection(companyId, id);
  const previous: { status: ConnectionStatus; qrcode: string } = { status: current.status, qrcode: current.qrcode ?? '' };
  const opening = await store.updateConnectionSession(companyId, id, { status: 'OPENING', qrcode: '' });
  if (opening) await publishSession(opening);
  try {
    await sendSessionCommand(lifecycleCommand(kind, companyId, id));
  } catch (error) {
    const restored = await store.updateConnectionSession(companyId, id, previous);
    if (restored) await publishSession(restored);
    throw error;
  }
}

/** POST /whatsappsession/{id}: try again with the stored credentials (or a QR). */
export const startSession = (companyId: number, id: number): Promise<void> => openAndSend(companyId, id, 'start');

/** PUT /whatsappsession/{id}: drop the credentials and show a fresh QR. */
export async function requestNewQr(companyId: number, id: number): Promise<void> {
  await openAndSend(companyId, id, 'newQr');
  await recordAudit({ action: 'connection.newQr', targetType: 'connection', targetId: id });
}

/** DELETE /whatsappsession/{id}: log out on WhatsApp; the host reports DISCONNECTED when done. */
export async function disconnectSession(companyId: number, id: number): Promise<void> {
  await findConnection(companyId, id);
  await sendSessionCommand(lifecycleCommand('logout', companyId, id));
  await recordAudit({ action: 'connection.disconnect', targetType: 'connection', targetId: id });
}
