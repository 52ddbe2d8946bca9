/**
 * Dashboard counters (issue 12, BEHAVIOUR "Dashboard"): per-day aggregates kept as tickets change,
 * so a dashboard request reads a bounded number of small items (days x active queues x shards),
 * never the company's tickets.
 *
 *   dashboard pk = C#<cid>#DASH   sk = D#<YYYY-MM-DD>#Q#<padded queueId | 0>#S#<shard>
 *   report    pk = C#<cid>#DASH   sk = R#<YYYY-MM-DD>#Q#<padded queueId | 0>#S#<shard>[#U#<attendant id>]
 *             numbers only, every one kept with ADD in the SAME transaction as the ticket change
 *             it counts (createTicket, updateTicketState, the chatbot turn, the sweeps' commit), so
 *             a change is never counted without being stored or the reverse. The day is the
 *             company's time zone (setting `timezone`, read through the settings read cache: the
 *             inbound path has read it a moment before, so no extra round trip there).
 *
 *   Cohort attributes (day = the day the conversation began: creation, or reopening a closed ticket;
 *   queue = the ticket's queue NOW: they move with the ticket). A ticket is in one cohort at a time:
 *   reopening moves it out of the day it began before, so it is never both finished and in
 *   conversation, nor two conversations begun (issue 25):
 *     open, pending, closed     conversations begun that day, by their current status
 *     h00..h23                  the same conversations by the hour they began (the one-day chart)
 *   Event attributes (day = the day of the event, queue = the ticket's queue after it):
 *     waitMs, waitN             pending -> open with an attendant: time since it entered the waiting list
 *     supportMs, supportN       closed: time since an attendant first took the conversation
 *     u<id>t                    conversations closed by attendant <id>
 *     u<id>s, u<id>n            that attendant's support time (sum, count)
 *     u<id>r, u<id>c            ratings given to that attendant's conversations (sum, count)
 *     contacts                  contacts created that day (queue 0)
 *   Report attributes (issue 22 §4, report-histogram.ts; same day and queue rules as the events):
 *     F00..F15                  first responses by bucket of (the first response's time - convAt):
 *                               counted by storage/messages/messages.ts, in the message's own transaction, for
 *                               the first message of the conversation that an attendant typed (in
 *                               the inbox or on the phone; never a private note, the bot's, a
 *                               campaign's or any other automatic one: messages/messages.ts countsAsFirstReply),
 *                               sent at or after convAt. Once per conversation: the ticket's
 *                               `respondedConvAt` is set to convAt on condition that it is not already.
 *     R00..R15                  resolutions by bucket of (the close - convAt): a conversation closed
 *     G1..G5                    ratings by value (SPEC: 1-3; room for a 5-point scale)
 *     Sm, Sb                    service-level targets met / missed, settled at the close from the
 *                               ticket's sla map (tickets/sla.ts): resolution met when closed by
 *                               resolutionDueAt; first response met when firstRespondedAt <= its due,
 *                               missed when later or when closed unanswered after the due (closed
 *                               unanswered before the due: not counted)
 *     u<id>F.., u<id>R.., u<id>G<k>, u<id>Sm, u<id>Sb   the same per attendant: the one who sent the
 *                               first response (else the ticket's), the one holding the ticket at
 *                               the close or the rating
 *
 * Two items, by who reads them (issue 24 §2). counterDeltas below speaks of one logical item per
 * day x queue x shard; storedDeltas splits each into the items stored:
 *   D   open, pending, closed, waitMs, waitN, supportMs, supportN, contacts, u<id>t/s/n/r/c: the
 *       sums the dashboard reads, which a few conversations fill: a quiet company's D items hold
 *       nearly the attributes a busy one's do, so a dashboard request reads about the same bytes at
 *       1k tickets as at 100k (bench:dashboard). An attendant's sums (u<id>..) go to the D item of
 *       the attendant's shard (id mod shards), not the ticket's, so a day and queue hold each
 *       attendant once, not once a shard. Size: ~130 B plus ~45 B per attendant of that shard who
 *       finished or was rated there that day (50 attendants: ~0.7 KB).
 *   R   everything else: the hours and the histograms (h, F, R, G, Sm, Sb, u<id>F.. and the rest),
 *       which fill in as a company grows and multiply with its attendants. Read by the reports and
 *       the one-day chart only. A change's report attributes go to one R item: that of the attendant
 *       they name (a close, rating or first response credits one), else the shard's; so an R item
 *       holds one attendant at most, whatever the company's size: under 1 KB (one write unit).
 * Before the split one item held all of it: ~40 fixed attributes plus 44 per attendant (50
 * attendants ~33 KB), and every change paid its whole size in write units. Now a creation (status
 * and hour) and a close (status and resolution bucket) write 2 small items where they wrote 1 (a
 * close or a rating one more when its attendant's shard is not the ticket's); a take, a first
 * response and a new contact write 1, as before.
 *
 * Items written in the single shape (before the split) are read as they are, no migration: every
 * count lives in exactly one item, and each reader sums over the items it reads: the dashboard over
 * the D items (which hold all its attributes in either shape), the reports and the one-day chart
 * over the D and R items. An old day costs its old read size until it leaves the period asked for.
 *
 * Shards: a company's busiest item would otherwise be touched by every ticket of the day, and two
 * transactions on one item at the same moment cancel each other; a ticket always counts in shard
 * (ticketId mod SHARDS), a contact in (contactId mod SHARDS).
 *
 * The ticket carries what the counters need to measure at the next change (set by
 * ticketStateUpdate, in the same write): convAt (the conversation began), queuedAt (entered the
 * waiting list), startedAt (an attendant first took it). A ticket written before these existed has
 * no convAt: its cohort is not moved (it was never counted), its events still are.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, type TransactItem, table } from './db.ts';
import { bucketName, bucketOf } from './report-histogram.ts';
import { listSettingsCached } from './settings.ts';
import { pad, tenantPk } from './table.ts';

export const DASHBOARD_SHARDS = 4;

/** What the counters read of a ticket (a TicketRecord fits). */
export interface CountedTicket {
  companyId: number;
  id: number;
  status: 'open' | 'pending' | 'closed';
  userId: number | null;
  queueId: number | null;
  createdAt: string;
  rating: number | null;
  ratedAt: string | null;
  convAt?: string | null;
  queuedAt?: string | null;
  startedAt?: string | null;
  /** The service level's facts (tickets/sla.ts), settled into Sm/Sb at the close. */
  sla?: { firstResponseDueAt?: string; firstRespondedAt?: string; resolutionDueAt?: string } | null;
}

export const dashboardPk = (companyId: number): string => `${tenantPk(companyId)}#DASH`;
export const dashboardSk = (day: string, queueId: number | null, shard: number): string => `D#${day}#Q#${pad(queueId ?? 0)}#S#${shard}`;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The day (YYYY-MM-DD) and hour (00-23) of `iso` in `timeZone`. */
export function localDayHour(iso: string, timeZone: string): { day: string; hour: string } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: parts.hour === '24' ? '00' : (parts.hour as string) };
}

/** The company's time zone (settings read cache; UTC when the stored value is not a zone). */
export async function companyTimeZone(companyId: number): Promise<string> {
  const value = (await listSettingsCached(companyId)).find((s) => s.key === 'timezone')?.value ?? 'UTC';
  try {
    formatter(value);
    return value;
  } catch {
    return 'UTC';
  }
}

/**
 * The tracking fields a change sets on the ticket (pure: ticketStateUpdate and createTicket merge
 * them into the same write). `before` undefined = a new ticket.
 */
export function trackingFields(
  before: CountedTicket | undefined,
  next: CountedTicket,
  at: string,
): Pick<CountedTicket, 'convAt' | 'queuedAt' | 'startedAt'> {
  // A ticket created closed (a campaign's conversation nobody answered yet) begins no conversation:
  // it counts from the reply that reopens it, not as a conversation finished the day it was sent.
  const begins = next.status !== 'closed' && (!before || before.status === 'closed');
  const convAt = begins ? at : (before?.convAt ?? null);
  const prevQueued = begins ? null : (before?.queuedAt ?? null);
  const prevStarted = begins ? null : (before?.startedAt ?? null);
  const entersWaiting = next.status === 'pending' && (begins || before?.status !== 'pending');
  const starts = next.status === 'open' && next.userId !== null && (begins || before?.status !== 'open');
  return {
    convAt,
    queuedAt: entersWaiting ? at : next.status === 'pending' ? prevQueued : null,
    startedAt: prevStarted ?? (starts ? at : null),
  };
}

/** Counter changes by item sort key. */
export type Deltas = Map<string, Record<string, number>>;

function add(deltas: Deltas, sk: string, attr: string, n: number) {
  if (!n) return;
  const item = deltas.get(sk) ?? {};
  item[attr] = (item[attr] ?? 0) + n;
  deltas.set(sk, item);
}

const ms = (from: string, to: string) => Math.max(0, Date.parse(to) - Date.parse(from));
const bucket = (from: string, to: string) => bucketName(bucketOf(ms(from, to) / 1000));

/** The report attributes of a close at `at` (resolution bucket, targets met or missed), for the queue and its attendant. */
function closeReport(deltas: Deltas, sk: string, before: CountedTicket, userId: number | null, at: string) {
  const both = (attr: string) => {
    add(deltas, sk, attr, 1);
    if (userId !== null) add(deltas, sk, `u${userId}${attr}`, 1);
  };
  if (before.convAt) both(`R${bucket(before.convAt, at)}`);
  const sla = before.sla;
  if (sla?.resolutionDueAt) both(at <= sla.resolutionDueAt ? 'Sm' : 'Sb');
  if (sla?.firstResponseDueAt) {
    if (sla.firstRespondedAt) both(sla.firstRespondedAt <= sla.firstResponseDueAt ? 'Sm' : 'Sb');
    else if (at > sla.firstResponseDueAt) both('Sb');
  }
}

/**
 * The counter changes of one ticket change, from `before` (undefined = created) to `next` (with its
 * tracking fields), at `at`, in `timeZone`. Pure, for the writers and for tests.
 */
export function counterDeltas(before: CountedTicket | undefined, next: CountedTicket, at: string, timeZone: string): Deltas {
  const deltas: Deltas = new Map();
  const shard = next.id % DASHBOARD_SHARDS;
  const begins = !before || (before.status === 'closed' && next.status !== 'closed');

  // Cohort: remove what `before` contributed, add what `next` does. On a reopen `before` is the
  // finished conversation: it leaves its day, and the ticket counts once, as the conversation begun now.
  const cohort = (t: CountedTicket, sign: number) => {
    if (!t.convAt) return;
    const { day, hour } = localDayHour(t.convAt, timeZone);
    const sk = dashboardSk(day, t.queueId, shard);
    add(deltas, sk, t.status, sign);
    add(deltas, sk, `h${hour}`, sign);
  };
  if (before) cohort(before, -1);
  cohort(next, 1);

  const event = dashboardSk(localDayHour(at, timeZone).day, next.queueId, shard);
  const starts = next.status === 'open' && next.userId !== null && (begins || before?.status !== 'open');
  if (starts && !begins && before?.queuedAt) {
    add(deltas, event, 'waitMs', ms(before.queuedAt, at));
    add(deltas, event, 'waitN', 1);
  }
  const finishes = next.status === 'closed' && before !== undefined && before.status !== 'closed';
  if (finishes) {
    const user = next.userId ?? 0;
    if (next.userId !== null) add(deltas, event, `u${user}t`, 1);
    closeReport(deltas, event, before, next.userId, at);
    if (before.startedAt) {
      const took = ms(before.startedAt, at);
      add(deltas, event, 'supportMs', took);
      add(deltas, event, 'supportN', 1);
      if (next.userId !== null) {
        add(deltas, event, `u${user}s`, took);
        add(deltas, event, `u${user}n`, 1);
      }
    }
  }
  const rated = next.rating !== null && next.ratedAt !== null && next.ratedAt !== (before?.ratedAt ?? null);
  if (rated) add(deltas, event, `G${next.rating}`, 1);
  if (rated && next.userId !== null) {
    add(deltas, event, `u${next.userId}r`, next.rating as number);
    add(deltas, event, `u${next.userId}c`, 1);
    add(deltas, event, `u${next.userId}G${next.rating}`, 1);
  }
  return deltas;
}

/**
 * The counter changes of a conversation's first response, sent at `at` by attendant `userId` (null:
 * typed on the phone, credited to the ticket's attendant if any): F<bucket of at - convAt>. Pure.
 */
export function firstResponseDeltas(
  ticket: CountedTicket & { convAt: string },
  userId: number | null,
  at: string,
  timeZone: string,
): Deltas {
  const deltas: Deltas = new Map();
  const sk = dashboardSk(localDayHour(at, timeZone).day, ticket.queueId, ticket.id % DASHBOARD_SHARDS);
  const attr = `F${bucket(ticket.convAt, at)}`;
  add(deltas, sk, attr, 1);
  const who = userId ?? ticket.userId;
  if (who !== null) add(deltas, sk, `u${who}${attr}`, 1);
  return deltas;
}

/** The transaction items that count a first response (storage/messages/messages.ts, with the message). */
export async function firstResponseCounterItems(
  ticket: CountedTicket & { convAt: string },
  userId: number | null,
  at: string,
): Promise<TransactItem[]> {
  return counterUpdates(ticket.companyId, firstResponseDeltas(ticket, userId, at, await companyTimeZone(ticket.companyId)));
}

/** The attributes the dashboard reads, kept in the D items; every other one lives in an R item. */
const DASHBOARD_ATTRIBUTE = /^(?:open|pending|closed|waitMs|waitN|supportMs|supportN|contacts|u\d+[tsnrc])$/;

/** The report item of a D item's sort key: its shard's, or that of the attendant `userId`. */
const reportSk = (dashboardSortKey: string, userId?: string): string => `R${dashboardSortKey.slice(1)}${userId ? `#U#${userId}` : ''}`;

/** An attendant's dashboard sums (u<id>t/s/n/r/c). */
const ATTENDANT_SUM = /^u(\d+)[tsnrc]$/;

/**
 * The D item an attendant's sums go to: that of the attendant's own shard (id mod shards) rather
 * than the ticket's, so a busy day holds each attendant once per queue, not once in every shard
 * (bench:dashboard reads about the same bytes at 1k and 100k tickets). Readers sum every shard.
 */
const attendantSk = (dashboardSortKey: string, userId: number): string =>
  dashboardSortKey.replace(/#S#\d+$/, `#S#${userId % DASHBOARD_SHARDS}`);

/**
 * Where the logical items' attributes are stored (the header's D and R): each logical item becomes
 * its D part (an attendant's sums in the D item of their shard) and at most one R part, that of the
 * attendant its report attributes name (one change credits one attendant), else its shard's. Pure,
 * for the writers, the benches and tests.
 */
export function storedDeltas(deltas: Deltas): Deltas {
  const stored: Deltas = new Map();
  for (const [sk, attrs] of deltas) {
    const report = Object.entries(attrs).filter(([attr, n]) => n !== 0 && !DASHBOARD_ATTRIBUTE.test(attr));
    const attendant = report.map(([attr]) => /^u(\d+)/.exec(attr)?.[1]).find((id) => id !== undefined);
    for (const [attr, n] of Object.entries(attrs)) {
      const userId = ATTENDANT_SUM.exec(attr)?.[1];
      const at = !DASHBOARD_ATTRIBUTE.test(attr) ? reportSk(sk, attendant) : userId ? attendantSk(sk, Number(userId)) : sk;
      add(stored, at, attr, n);
    }
  }
  return stored;
}

/** One ADD Update per stored counter item (a transaction may touch an item once). */
export function counterUpdates(companyId: number, deltas: Deltas): TransactItem[] {
  const items: TransactItem[] = [];
  for (const [sk, attrs] of storedDeltas(deltas)) {
    const entries = Object.entries(attrs).filter(([, n]) => n !== 0);
    if (!entries.length) continue;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const adds = entries.map(([attr, n], i) => {
      names[`#a${i}`] = attr;
      values[`:a${i}`] = n;
      return `#a${i} :a${i}`;
    });
    items.push({
      Update: {
        TableName: table(),
        Key: { pk: dashboardPk(companyId), sk },
        UpdateExpression: `SET entity = :entity ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':entity': 'dashboardCounter' },
      },
    });
  }
  return items;
}

/**
 * The transaction items that count a ticket change (the hook of the ticket writers), with `also`:
 * other counts of the same transaction (a new contact's, storage/messages/first-message.ts), merged into the
 * same items, since a transaction may touch an item once.
 */
export async function ticketCounterItems(
  before: CountedTicket | undefined,
  next: CountedTicket,
  at: string,
  also: Deltas = new Map(),
): Promise<TransactItem[]> {
  const deltas = counterDeltas(before, next, at, await companyTimeZone(next.companyId));
  for (const [sk, attrs] of also) for (const [attr, n] of Object.entries(attrs)) add(deltas, sk, attr, n);
  return counterUpdates(next.companyId, deltas);
}

type CountedContact = { companyId: number; id: number; createdAt: string };

/** The counter change of a new contact: `contacts` of its day, queue 0, its shard. */
export async function contactCounterDeltas(contact: CountedContact): Promise<Deltas> {
  const { day } = localDayHour(contact.createdAt, await companyTimeZone(contact.companyId));
  return new Map([[dashboardSk(day, null, contact.id % DASHBOARD_SHARDS), { contacts: 1 }]]);
}

/** The transaction item that counts a new contact. */
export async function contactCounterItems(contact: CountedContact): Promise<TransactItem[]> {
  return counterUpdates(contact.companyId, await contactCounterDeltas(contact));
}

export interface CounterItem {
  day: string;
  queueId: number;
  values: Record<string, number>;
}

/**
 * Which items a read takes: 'dashboard' the D items (every figure of the dashboard and its
 * day-by-day and per-attendant charts), 'all' the D and R items (the reports, the one-day chart).
 */
export type CounterParts = 'dashboard' | 'all';

/** Every counter item of days `from`..`to` (inclusive, YYYY-MM-DD): one Query a part, paged. */
export async function readCounters(
  companyId: number,
  from: string,
  to: string,
  parts: CounterParts = 'all',
): Promise<{ items: CounterItem[]; requests: number }> {
  const reads = await Promise.all((parts === 'all' ? ['D', 'R'] : ['D']).map((prefix) => readPart(companyId, prefix, from, to)));
  return { items: reads.flatMap((read) => read.items), requests: reads.reduce((n, read) => n + read.requests, 0) };
}

async function readPart(companyId: number, prefix: string, from: string, to: string): Promise<{ items: CounterItem[]; requests: number }> {
  const items: CounterItem[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  let requests = 0;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': dashboardPk(companyId), ':from': `${prefix}#${from}`, ':to': `${prefix}#${to}#~` },
        ExclusiveStartKey,
      }),
    );
    requests++;
    for (const { pk, sk, entity, ...values } of out.Items ?? []) {
      const [, day, , queue] = String(sk).split('#');
      items.push({ day: day as string, queueId: Number(queue), values: values as Record<string, number> });
    }
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { items, requests };
}
