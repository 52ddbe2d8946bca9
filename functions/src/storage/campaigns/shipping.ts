/**
 * The campaign engine's records (BEHAVIOUR "Campaigns"; domain/campaigns/engine.ts).
 *
 *   pace     pk = C#<cid>   sk = CAMPAIGNPACE#<padded connectionId>
 *            { seq, campaigns: number set, turn, sinceLong, idle, targetAt, lastBatch }
 *            -> one per connection: its chain of tick messages. Only the tick carrying `seq` acts,
 *               and its commit moves `seq` on, so a duplicate or stale tick does nothing and two
 *               campaigns on one connection share one pace. `campaigns` are the running ones
 *               (ADD/DELETE, never rewritten, so a start never loses to a tick's commit);
 *               `lastBatch` names what the last commit shipped, for a redelivered tick to finish.
 *   run      pk = C#<cid>   sk = CAMPAIGNRUN#<padded campaignId>
 *            { run, cursor, done, valid, invalid, queued, delivered, failed, confirmationRequested, confirmed }
 *            -> the campaign's walk of its list (`cursor`: the last item id shipped) and the report's
 *               counters, each moved in the same transaction as the record change it counts
 *   ship     pk = C#<cid>   sk = CAMPAIGNSHIP#<padded campaignId>#<padded itemId>
 *            { itemId, number, name, email, message, confirmation?, run, queuedAt, deliveredAt?,
 *              failedAt?, error?, confirmationRequestedAt?, confirmedAt? }
 *            -> one per (campaign, contact), written before its sends; the texts chosen once, so a
 *               resend is the same message
 *   confirm  pk = C#<cid>   sk = CAMPAIGNCONFIRM#<padded connectionId>#<number>   { campaignId, itemId }
 *            -> a contact's pending confirmation, the one GetItem the inbound path makes per reply
 *   due      gsi1pk = CAMPAIGN_DUE   gsi1sk = <scheduledAt>#<cid>#<padded id>   (on the campaign item, storage/campaigns/campaigns.ts)
 *
 * This file holds the records' shapes and keys; their reads and writes are beside it: campaigns/pace.ts,
 * campaigns/runs.ts, campaigns/ships.ts (ship and confirm, and the tick's commit), campaigns/due.ts.
 */
import { pad, tenantPk } from '../table.ts';

export interface PaceRecord {
  seq: number;
  campaigns: number[];
  turn: number;
  sinceLong: number;
  idle: boolean;
  /** Epoch ms the next send is due. */
  targetAt: number;
  lastBatch?: { seq: number; campaignId: number; itemIds: number[] };
}

export interface RunCounters {
  valid: number;
  invalid: number;
  queued: number;
  delivered: number;
  failed: number;
  confirmationRequested: number;
  confirmed: number;
}

export interface RunRecord extends RunCounters {
  campaignId: number;
  run: number;
  cursor: number;
  done: boolean;
}

export interface ShipRecord {
  campaignId: number;
  itemId: number;
  number: string;
  name: string;
  email: string;
  message: string;
  confirmation?: string;
  run: number;
  queuedAt: string;
  deliveredAt?: string;
  failedAt?: string;
  error?: string;
  confirmationRequestedAt?: string;
  confirmedAt?: string;
  /** The contact's phone acked the message delivered (ack 2 or 3) / read (ack 4 or 5); each set once. */
  receivedAt?: string;
  readAt?: string;
}

export const paceKey = (companyId: number, connectionId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGNPACE#${pad(connectionId)}` });
export const runKey = (companyId: number, campaignId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGNRUN#${pad(campaignId)}` });
export const shipKey = (companyId: number, campaignId: number, itemId: number) => ({
  pk: tenantPk(companyId),
  sk: `CAMPAIGNSHIP#${pad(campaignId)}#${pad(itemId)}`,
});
export const confirmKey = (companyId: number, connectionId: number, number: string) => ({
  pk: tenantPk(companyId),
  sk: `CAMPAIGNCONFIRM#${pad(connectionId)}#${number}`,
});

/**
 * Every attribute these expressions name goes through `#name` (CURSOR, RUN and others are DynamoDB
 * reserved words); `named(...)` is the map of the ones an expression uses.
 */
const ATTRIBUTES = [
  'seq',
  'campaigns',
  'idle',
  'targetAt',
  'sinceLong',
  'turn',
  'lastBatch',
  'campaignId',
  'cursor',
  'done',
  'valid',
  'invalid',
  'failed',
  'queued',
  'delivered',
  'confirmationRequested',
  'confirmed',
  'entity',
  'run',
] as const;
const named = (expression: string): Record<string, string> =>
  Object.fromEntries(ATTRIBUTES.filter((name) => new RegExp(`#${name}\\b`).test(expression)).map((name) => [`#${name}`, name]));

/** Adds the `#name`s an update's expressions use to its ExpressionAttributeNames. */
export function withNames<
  T extends { UpdateExpression: string; ConditionExpression?: string; ExpressionAttributeNames?: Record<string, string> },
>(input: T): T {
  const names = { ...named(`${input.UpdateExpression} ${input.ConditionExpression ?? ''}`), ...input.ExpressionAttributeNames };
  return Object.keys(names).length ? { ...input, ExpressionAttributeNames: names } : input;
}

export const campaignKeyOf = (companyId: number, campaignId: number) => ({ pk: tenantPk(companyId), sk: `CAMPAIGN#${pad(campaignId)}` });

export const emptyCounters = (): RunCounters => ({
  valid: 0,
  invalid: 0,
  queued: 0,
  delivered: 0,
  failed: 0,
  confirmationRequested: 0,
  confirmed: 0,
});
