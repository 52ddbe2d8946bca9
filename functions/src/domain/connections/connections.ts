/**
 * Connections of a company (SPEC 3 "Connection", 7 "Connections"). The company is always the
 * caller's; another company's connection id is "not found".
 *
 * Rules: the plan's connection limit; the first connection is the default and a company keeps
 * exactly one default (ERR_NO_OTHER_WHATSAPP when the default would be unset); a greeting is
 * required with more than one queue (ERR_WAPP_GREETING_REQUIRED); queues must be the company's own.
 */

import { ConflictError, NotFoundError, ValidationError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { Connection, ConnectionInput, ConnectionUpdateInput } from '#contracts/connections';
import { changesOf, recordAudit } from '#domain/audit/record';
import { lifecycleCommand, sendSessionCommand } from '#domain/messages/session-commands';
import { createWithinPlanLimit } from '#domain/plans/limits';
import { assertOwnBotReferences } from '#domain/queue-integrations/references';
import * as store from '#storage/connections';
import { listQueues } from '#storage/queues/queues';
import * as users from '#storage/users/users';
import { publishConnection, publishConnectionDeleted } from './events.ts';
import { type QueueDirectory, queueDirectory, toConnection } from './present.ts';

export interface ConnectionActor {
  companyId: number;
  /** Admins see the API token. */
  admin: boolean;
}

export const GREETING_REQUIRED_MESSAGE = 'A greeting is required when there is more than one queue';

async function directoryOf(companyId: number): Promise<QueueDirectory> {
  return queueDirectory(await listQueues(companyId));
}

export async function findConnection(companyId: number, id: number): Promise<store.ConnectionRecord> {
  const record = await store.getConnection(companyId, id);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NO_WAPP_FOUND');
  return record;
}

export async function listConnectionsFor(actor: ConnectionActor): Promise<Connection[]> {
  const [records, directory] = await Promise.all([store.listConnections(actor.companyId), directoryOf(actor.companyId)]);
  return records.map((record) => toConnection(record, directory, actor.admin));
}

export async function getConnectionFor(actor: ConnectionActor, id: number): Promise<Connection> {
  const [record, directory] = await Promise.all([findConnection(actor.companyId, id), directoryOf(actor.companyId)]);
  return toConnection(record, directory, actor.admin);
}

/** The effective queue settings must name the company's queues and carry a greeting when there are several. */
function checkQueueRules(
  directory: QueueDirectory,
  settings: { queueIds: number[]; transferQueueId: number | null; greetingMessage: string },
): void {
  const unknown = settings.queueIds.findIndex((id) => !directory.has(id));
  if (unknown >= 0) throw new ValidationError(`queueIds.${unknown}`, 'Queue not found');
  if (settings.transferQueueId != null && !directory.has(settings.transferQueueId)) {
    throw new ValidationError('transferQueueId', 'Queue not found');
  }
  if (settings.queueIds.length > 1 && !settings.greetingMessage.trim()) {
    throw new ValidationError('greetingMessage', GREETING_REQUIRED_MESSAGE, 'ERR_WAPP_GREETING_REQUIRED');
  }
}

const unique = (ids: number[]): number[] => [...new Set(ids)];

/** Makes `keep` the only default: every other default is unset (and announced). */
async function unsetOtherDefaults(companyId: number, keep: number, directory: QueueDirectory): Promise<void> {
  const others = (await store.listConnections(companyId)).filter((c) => c.isDefault && c.id !== keep);
  for (const other of others) {
    const updated = await store.updateConnection(companyId, other.id, { isDefault: false });
    await publishConnection(toConnection(updated, directory, false));
  }
}

export async function createConnectionFor(
  actor: ConnectionActor,
  connectionsLimit: number,
  input: ConnectionInput,
  now = new Date(),
): Promise<Connection> {
  const { companyId } = actor;
  const directory = await directoryOf(companyId);
  const queueIds = unique(input.queueIds);
  checkQueueRules(directory, { ...input, queueIds });
  await assertOwnBotReferences(companyId, input);

  const at = now.toISOString();
  let existing: store.ConnectionRecord[] = [];
  const record = await createWithinPlanLimit({
    companyId,
    kind: 'connections',
    limit: connectionsLimit,
    code: 'ERR_PLAN_LIMIT_CONNECTIONS',
    count: async () => {
      existing = await store.listConnections(companyId);
      return existing.length;
    },
    create: async (claim) => {
      // Counted under a claim only when the plan has a limit; the default rule needs the list anyway.
      if (!claim) existing = await store.listConnections(companyId);
      const created: store.ConnectionRecord = {
        ...input,
        queueIds,
        id: await store.newConnectionId(companyId),
        companyId,
        // The first connection is the default whatever the form says: a company always has one.
        isDefault: input.isDefault || existing.length === 0,
        // The start command below asks the session-host for a QR; until it answers, the session is opening.
        status: 'OPENING',
        qrcode: '',
        retries: 0,
        number: '',
        createdAt: at,
        updatedAt: at,
      };
      return store.createConnection(created, claim);
    },
  });
  if (record.isDefault) await unsetOtherDefaults(companyId, record.id, directory);

  let stored = record;
  try {
    await sendSessionCommand(lifecycleCommand('start', companyId, record.id));
  } catch (error) {
    // The connection exists; without a command nobody will move it out of OPENING. Show it
    // disconnected so "Try again" is offered, rather than failing a create that happened.
    logger.error('start command not sent for a new connection', { companyId, connectionId: record.id, error: error as Error });
    stored = (await store.updateConnectionSession(companyId, record.id, { status: 'DISCONNECTED' })) ?? record;
  }
  await recordAudit({
    action: 'connection.create',
    targetType: 'connection',
    targetId: record.id,
    changes: changesOf(null, { ...record }, [...Object.keys(input), 'isDefault']),
  });
  const connection = toConnection(stored, directory, true);
  await publishConnection({ ...connection, token: '' });
  return connection;
}

export async function updateConnectionFor(actor: ConnectionActor, id: number, input: ConnectionUpdateInput): Promise<Connection> {
  const { companyId } = actor;
  const [current, directory] = await Promise.all([findConnection(companyId, id), directoryOf(companyId)]);
  if (input.isDefault === false && current.isDefault) throw new ConflictError('ERR_NO_OTHER_WHATSAPP');
  const queueIds = input.queueIds ? unique(input.queueIds) : (current.queueIds ?? []);
  checkQueueRules(directory, {
    queueIds,
    transferQueueId: input.transferQueueId !== undefined ? input.transferQueueId : (current.transferQueueId ?? null),
    greetingMessage: input.greetingMessage ?? current.greetingMessage ?? '',
  });
  await assertOwnBotReferences(companyId, input);

  const updated = await store.updateConnection(companyId, id, { ...input, queueIds: input.queueIds ? queueIds : undefined });
  if (updated.isDefault && !current.isDefault) await unsetOtherDefaults(companyId, id, directory);
  await recordAudit({
    action: 'connection.update',
    targetType: 'connection',
    targetId: id,
    changes: changesOf({ ...current }, { ...updated }, Object.keys(input)),
  });
  const connection = toConnection(updated, directory, true);
  await publishConnection({ ...connection, token: '' });
  return connection;
}

/**
 * Logs the session out first (the host drops it and its credentials), then deletes the record.
 * A default that goes hands the flag to the oldest remaining connection. Users whose default
 * connection it was fall back to none.
 */
export async function deleteConnectionFor(actor: ConnectionActor, id: number): Promise<void> {
  const { companyId } = actor;
  const current = await findConnection(companyId, id);
  await sendSessionCommand(lifecycleCommand('logout', companyId, id));
  await store.deleteConnection(companyId, id);
  await recordAudit({
    action: 'connection.delete',
    targetType: 'connection',
    targetId: id,
    changes: changesOf({ ...current }, null, ['name', 'number']),
  });
  await publishConnectionDeleted(companyId, id);

  if (current.isDefault) {
    const heir = (await store.listConnections(companyId)).sort((a, b) => a.id - b.id)[0];
    if (heir && !heir.isDefault) {
      const promoted = await store.updateConnection(companyId, heir.id, { isDefault: true });
      await publishConnection(toConnection(promoted, await directoryOf(companyId), false));
    }
  }
  for (const user of await users.listUsers(companyId)) {
    if (user.whatsappId === id) await users.updateUser(companyId, user.id, { whatsappId: null });
  }
}
