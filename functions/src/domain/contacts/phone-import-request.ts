/**
 * POST /contacts/import with neither a file nor rows: ask the session-host that owns the company's
 * default connection for its phone's contacts (phone-import.ts imports what it sends back). Kept
 * apart from phone-import.ts so the import Lambda's bundle carries no realtime or ticket code.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '#commons/errors';
import { sendSessionCommand } from '#domain/messages/session-commands';
import { getDefaultConnection } from '#storage/connections';

export interface PhoneImportRequest {
  message: string;
  whatsappId: number;
  importId: string;
}

/** ERR_NO_DEF_WAPP_FOUND (404) without a default connection; ERR_WAPP_NOT_INITIALIZED (409) when it is not CONNECTED. */
export async function requestPhoneImport(companyId: number): Promise<PhoneImportRequest> {
  const connection = await getDefaultConnection(companyId);
  if (!connection) throw new NotFoundError('ERR_NO_DEF_WAPP_FOUND');
  if (connection.status !== 'CONNECTED') throw new ConflictError('ERR_WAPP_NOT_INITIALIZED');
  const importId = randomUUID();
  await sendSessionCommand({ kind: 'importContacts', companyId, connectionId: connection.id, commandId: importId });
  return { message: 'Contacts import started', whatsappId: connection.id, importId };
}
