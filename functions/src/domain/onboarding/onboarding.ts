/**
 * The first day's checklist (issue 25 "Guide the first day"): each step is ticked from the company's
 * own data, never from what the browser claims.
 *
 * Cost. Two ways to know a step is done: a flag written when the act happens (in the send, accept,
 * create paths), or a look at the data when the checklist is read. Flags cost a write on every
 * reply and every accept of a busy company forever, for a checklist read a few times in its first
 * days. So the checklist probes, and remembers: each probe is one small Query bounded by what a new
 * company has (its queues, users, connections, quick replies; a few rows per user list of tickets),
 * a step once seen done is stored in the onboarding item and never probed again, and a company
 * that finished or dismissed the checklist pays one GetItem per read.
 */
import type { Onboarding, OnboardingStepKey } from '#contracts/onboarding';
import { onboardingStepKeys } from '#contracts/onboarding';
import type { Identity } from '#domain/identity';
import { listConnections } from '#storage/connections';
import { getOnboarding, markOnboardingDone, setOnboardingDismissed } from '#storage/onboarding';
import { countQueues, listQueues } from '#storage/queues/queues';
import { listQuickMessages } from '#storage/quick-messages';
import { getSetting } from '#storage/settings';
import { ticketLists } from '#storage/tickets/list-keys';
import { readListSlice } from '#storage/tickets/lists';
import { countUsers, listUserNamesCached } from '#storage/users/users';

/** How many of a user's newest open and closed tickets the probe looks at for an answer. */
const ANSWERED_PROBE_LIMIT = 10;

/**
 * A user answered a conversation: the step says "accept a ticket and reply to the customer", so an
 * accept alone is not it. A ticket carries `respondedConvAt` from its first reply typed by a person
 * (storage/messages/messages.ts: not the bot's, a campaign's or a private note); the probe looks at
 * each user's newest open and closed tickets.
 */
async function someConversationAnswered(companyId: number): Promise<boolean> {
  const users = await listUserNamesCached(companyId);
  const probes = users.flatMap((user) =>
    (['open', 'closed'] as const).map((status) =>
      readListSlice(companyId, 'gsi2', ticketLists.byStatusAndUser(companyId, status, user.id), { limit: ANSWERED_PROBE_LIMIT }),
    ),
  );
  return (await Promise.all(probes)).some((slice) => slice.tickets.some((ticket) => Boolean(ticket.respondedConvAt)));
}

/**
 * Opening hours are in force: `scheduleType` = company uses the company's hours (every company has
 * them, SPEC 9's defaults until edited in Settings), `queue` needs a queue with hours of its own.
 */
async function businessHoursInForce(companyId: number): Promise<boolean> {
  const scheduleType = await getSetting(companyId, 'scheduleType');
  if (scheduleType === 'company') return true;
  if (scheduleType !== 'queue') return false;
  return (await listQueues(companyId)).some((queue) => queue.schedules.length > 0);
}

const probes: Record<OnboardingStepKey, (companyId: number) => Promise<boolean>> = {
  connection: async (companyId) => (await listConnections(companyId)).some((connection) => connection.status === 'CONNECTED'),
  queue: async (companyId) => (await countQueues(companyId)) > 0,
  // The owner is the company's first user: anyone else was invited.
  attendant: async (companyId) => (await countUsers(companyId)) > 1,
  conversation: someConversationAnswered,
  quickReply: async (companyId) => (await listQuickMessages(companyId)).length > 0,
  businessHours: businessHoursInForce,
};

const present = (done: ReadonlySet<OnboardingStepKey>, dismissed: boolean): Onboarding => ({
  steps: onboardingStepKeys.map((key) => ({ key, done: done.has(key) })),
  dismissed,
});

/** GET /onboarding: the company's steps, probing only those not yet seen done (none once dismissed). */
export async function getCompanyOnboarding(identity: Identity): Promise<Onboarding> {
  const { companyId } = identity;
  const record = await getOnboarding(companyId);
  if (record.dismissed) return present(record.done, true);
  const pending = onboardingStepKeys.filter((key) => !record.done.has(key));
  if (!pending.length) return present(record.done, false);
  const results = await Promise.all(pending.map((key) => probes[key](companyId)));
  const newlyDone = pending.filter((_key, i) => results[i]);
  await markOnboardingDone(companyId, newlyDone);
  return present(new Set([...record.done, ...newlyDone]), false);
}

/** PUT /onboarding: an admin closes (or brings back) the checklist, for every device of the company. */
export async function updateCompanyOnboarding(identity: Identity, dismissed: boolean): Promise<Onboarding> {
  await setOnboardingDismissed(identity.companyId, dismissed);
  return getCompanyOnboarding(identity);
}
