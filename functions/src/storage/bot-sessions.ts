/**
 * Where a ticket's integration is in its own conversation: the Typebot session id and when the
 * contact last talked to it (typebotExpires counts from there). One item beside the ticket, so it
 * goes with the ticket; a resolve makes it irrelevant (a new cycle starts a new chat).
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, getItem, table } from './db.ts';
import { ticketPk } from './tickets/tickets.ts';

export interface BotSessionRecord {
  integrationId: number;
  sessionId: string;
  /** ISO time of the contact's last message to the integration. */
  lastAt: string;
}

const key = (companyId: number, ticketId: number) => ({ pk: ticketPk(companyId, ticketId), sk: 'BOTSESSION' });

export async function getBotSession(companyId: number, ticketId: number): Promise<BotSessionRecord | undefined> {
  const { entity: _entity, ...session } =
    (await getItem<BotSessionRecord & { entity?: string }>(key(companyId, ticketId).pk, 'BOTSESSION')) ?? {};
  return 'sessionId' in session ? (session as BotSessionRecord) : undefined;
}

export async function putBotSession(companyId: number, ticketId: number, session: BotSessionRecord): Promise<void> {
  await db().send(new PutCommand({ TableName: table(), Item: { ...key(companyId, ticketId), entity: 'botSession', ...session } }));
}

export async function deleteBotSession(companyId: number, ticketId: number): Promise<void> {
  await db().send(new DeleteCommand({ TableName: table(), Key: key(companyId, ticketId) }));
}
