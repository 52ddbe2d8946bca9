/**
 * Write shards of a busy tenant's ticket lists (issue 15). The queue and status lists (tickets/tickets.ts
 * gsi1, gsi3) take a write for every message of the tenant's tickets in them, so one partition's
 * 1,000 WCU/s would bind at about 1,000 messages a second in one queue. Once the tenant is busy
 * (domain/inbound/tenant-load.ts), its count of shards grows; a ticket's rows go to shard
 * `ticket id % count`, shard 0 being the unsharded partition; readers read every shard and merge them
 * as they merge any other sources.
 *
 *   count   on the company item (companies/companies.ts), `listShards`, absent = 1
 *
 * What keeps a list whole: the count only grows (companies/companies.ts raiseListShards), and readers take it
 * from the company read fresh (the HTTP identity, the sweeps), so they read every shard anyone ever
 * wrote. A writer may know a smaller count (this container's copy is up to 5 s old): it then writes
 * into a shard below the true count, which every reader reads. Only the spread suffers, never what a
 * list shows. A ticket moves to its shard on its next state change, or with its next message whose
 * store is conditional on the ticket's revision (an inbound message the bot has nothing to do for:
 * messages/messages.ts ticketActivity); other message activity moves only its sort key, within the
 * partition it is in (the partition follows the state, which a concurrent change may be moving).
 */
import { getCompanyCached } from './companies/companies.ts';

/** The counts this container has seen, per tenant: never lowered (the stored count never is). */
const known = new Map<number, number>();

/** A company record's count of list shards (absent = 1). */
export const listShardsOf = (company: { listShards?: number } | undefined): number => Math.max(1, Math.floor(company?.listShards ?? 1));

/** The shard a ticket's queue and status list rows are written in, as this container knows the tenant. */
export const listShardOf = (companyId: number, ticketId: number): number => ticketId % (known.get(companyId) ?? 1);

/** Refreshes this container's count for the tenant (the company read cache, at most 5 s old). Writers of list keys call it first. */
export async function primeListShards(companyId: number): Promise<number> {
  const shards = Math.max(listShardsOf(await getCompanyCached(companyId)), known.get(companyId) ?? 1);
  known.set(companyId, shards);
  return shards;
}
