/**
 * The chatbot's decision for one inbound message (BEHAVIOUR "Queue routing and the chatbot",
 * "Tickets"): the ticket state to commit and the replies to send. No writes here: run.ts commits the
 * decision with its replies in one transaction, so a decision is applied entirely or not at all.
 */
import type { ScheduleEntry } from '#contracts/schedules';
import type { QueueOptionRecord } from '#storage/queues/options';
import type { QueueRecord } from '#storage/queues/queues';
import type { BotState, TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { isWithinSchedule } from './hours.ts';

export const OUT_OF_HOURS_INTERVAL_MS = 5 * 60_000;

export interface BotConnection {
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  maxUseBotQueues: number;
  timeUseBotQueues: number;
  promptId?: number | null;
  integrationId?: number | null;
}

export interface BotContext {
  ticket: TicketRecord;
  body: string;
  now: Date;
  connection: BotConnection;
  /** The connection's queues in menu order. */
  queues: QueueRecord[];
  settings: { sendGreetingMessageOneQueues: string; scheduleType: string; timezone: string };
  companySchedules: readonly ScheduleEntry[];
  /** A queue's whole option tree (flat). */
  loadTree(queueId: number): Promise<QueueOptionRecord[]>;
}

export interface BotDecision {
  patch: TicketStatePatch;
  replies: string[];
  /** The first reply opens with the connection's or the queue's greeting (its origin in the thread). */
  greeting?: boolean;
}

const NOTHING: BotDecision = { patch: {}, replies: [] };

const join = (...parts: string[]) =>
  parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n\n');
const byOption = (a: QueueOptionRecord, b: QueueOptionRecord) =>
  a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id;
const childrenOf = (tree: QueueOptionRecord[], parentId: number | null) =>
  tree.filter((node) => (node.parentId ?? null) === parentId).sort(byOption);

/** BEHAVIOUR "Tickets": while the ticket awaits its rating, 1-3 rates and closes; anything else closes. */
export function decideRating(body: string, completion: string, now: Date): BotDecision {
  const rate = body.trim();
  const closing: TicketStatePatch = { status: 'closed', awaitingRating: false, chatbot: false, bot: null };
  if (rate === '1' || rate === '2' || rate === '3') {
    return { patch: { ...closing, rating: Number(rate), ratedAt: now.toISOString() }, replies: completion.trim() ? [completion] : [] };
  }
  return { patch: closing, replies: [] };
}

/**
 * The AI prompt or integration a connection or queue hands its conversations to (BEHAVIOUR "A queue's
 * integration or AI prompt takes over when set"): the ticket records which one holds it
 * (`useIntegration`) and keeps the id after it hands back, so it takes over once per cycle (until
 * the ticket is resolved, which clears all three: SPEC 4). The integration wins when both are set.
 */
export function takeoverOf(holder: { promptId?: number | null; integrationId?: number | null } | undefined): TicketStatePatch | undefined {
  if (holder?.integrationId) return { useIntegration: true, integrationId: holder.integrationId, promptId: null };
  if (holder?.promptId) return { useIntegration: true, promptId: holder.promptId, integrationId: null };
  return undefined;
}

/** A prompt or integration held this ticket in its current cycle (or holds it now). */
const takenThisCycle = (ticket: TicketRecord): boolean =>
  ticket.useIntegration || ticket.promptId !== null || ticket.integrationId !== null;

/** Whether the bot talks to this ticket at all: waiting (pending), nobody attending, not a group. */
export const botApplies = (ticket: TicketRecord): boolean => ticket.status === 'pending' && ticket.userId === null && !ticket.isGroup;

export async function decide(ctx: BotContext): Promise<BotDecision> {
  const { ticket, settings, now } = ctx;
  if (settings.scheduleType === 'company' && ctx.connection.outOfHoursMessage.trim()) {
    if (!isWithinSchedule(ctx.companySchedules, now, settings.timezone)) return outOfHours(ctx, ctx.connection.outOfHoursMessage, {});
  }
  // A prompt or integration holds the ticket: it answers (domain/bots), the menu stays quiet.
  if (ticket.useIntegration) return NOTHING;
  const fresh = !takenThisCycle(ticket);
  if (ticket.queueId === null) {
    const connectionBot = fresh ? takeoverOf(ctx.connection) : undefined;
    if (connectionBot) return { patch: connectionBot, replies: [] };
    if (!ctx.queues.length) return NOTHING;
    if (ctx.queues.length === 1) {
      const queue = ctx.queues[0] as QueueRecord;
      const greet = settings.sendGreetingMessageOneQueues === 'enabled';
      return enterQueue(ctx, queue, greet ? queue.greetingMessage || ctx.connection.greetingMessage : '');
    }
    const input = ctx.body.trim();
    if (ticket.bot?.stage === 'menu' && /^\d+$/.test(input)) {
      const chosen = ctx.queues[Number(input) - 1];
      if (chosen) return enterQueue(ctx, chosen, chosen.greetingMessage);
    }
    return mainMenu(ctx, {});
  }
  const queue = ctx.queues.find((q) => q.id === ticket.queueId);
  if (
    queue &&
    settings.scheduleType === 'queue' &&
    queue.outOfHoursMessage.trim() &&
    !isWithinSchedule(queue.schedules, now, settings.timezone)
  ) {
    return outOfHours(ctx, queue.outOfHoursMessage, {});
  }
  const queueBot = fresh ? takeoverOf(queue) : undefined;
  if (queueBot) return { patch: { ...queueBot, chatbot: false, bot: null }, replies: [] };
  if (ticket.chatbot && ticket.bot?.stage === 'options' && queue) return walkOptions(ctx, queue);
  return NOTHING;
}

/** At most once per 5 minutes per ticket; within that the message is stored and nothing is sent. */
function outOfHours(ctx: BotContext, message: string, patch: TicketStatePatch): BotDecision {
  const last = ctx.ticket.outOfHoursAt ? Date.parse(ctx.ticket.outOfHoursAt) : 0;
  if (ctx.now.getTime() - last < OUT_OF_HOURS_INTERVAL_MS) return { patch, replies: [] };
  return { patch: { ...patch, outOfHoursAt: ctx.now.toISOString() }, replies: [message] };
}

/**
 * Counts bot menus (the *fix*: peers never counted): at most maxUseBotQueues within
 * timeUseBotQueues minutes (0 minutes = for as long as the ticket waits; 0 max = no limit).
 * Returns the next state, or undefined when the limit is reached.
 */
function countMenu(ctx: BotContext, stage: BotState['stage'], optionId: number | null): BotState | undefined {
  const state = ctx.ticket.bot;
  const windowMs = ctx.connection.timeUseBotQueues * 60_000;
  let count = state?.menuCount ?? 0;
  let start = state?.menuWindowStart ?? null;
  if (windowMs > 0 && start && ctx.now.getTime() - Date.parse(start) >= windowMs) {
    count = 0;
    start = null;
  }
  if (ctx.connection.maxUseBotQueues > 0 && count >= ctx.connection.maxUseBotQueues) return undefined;
  return { stage, optionId, menuCount: count + 1, menuWindowStart: start ?? ctx.now.toISOString() };
}

export const menuLine = (key: string, title: string) => `*[ ${key} ]* - ${title}`;

function mainMenu(ctx: BotContext, patch: TicketStatePatch): BotDecision {
  const bot = countMenu(ctx, 'menu', null);
  if (!bot) return { patch: { ...patch, ...(patch.queueId === null ? { chatbot: false, bot: null } : {}) }, replies: [] };
  const menu = ctx.queues.map((queue, i) => menuLine(String(i + 1), queue.name)).join('\n');
  return {
    patch: { ...patch, chatbot: true, bot },
    replies: [join(ctx.connection.greetingMessage, menu)],
    greeting: Boolean(ctx.connection.greetingMessage.trim()),
  };
}

async function enterQueue(ctx: BotContext, queue: QueueRecord, greeting: string): Promise<BotDecision> {
  const taken: TicketStatePatch = { queueId: queue.id, chatbot: false, bot: null };
  if (
    ctx.settings.scheduleType === 'queue' &&
    queue.outOfHoursMessage.trim() &&
    !isWithinSchedule(queue.schedules, ctx.now, ctx.settings.timezone)
  ) {
    return outOfHours(ctx, queue.outOfHoursMessage, taken);
  }
  // The queue's prompt or integration takes the conversation from here, instead of its options.
  const queueBot = takenThisCycle(ctx.ticket) ? undefined : takeoverOf(queue);
  const greets = Boolean(greeting.trim());
  if (queueBot) return { patch: { ...taken, ...queueBot }, replies: greets ? [greeting] : [], greeting: greets };
  const roots = childrenOf(await ctx.loadTree(queue.id), null);
  if (!roots.length) return { patch: taken, replies: greets ? [greeting] : [], greeting: greets };
  const bot: BotState = {
    stage: 'options',
    optionId: null,
    menuCount: ctx.ticket.bot?.menuCount ?? 0,
    menuWindowStart: ctx.ticket.bot?.menuWindowStart ?? null,
  };
  return { patch: { ...taken, chatbot: true, bot }, replies: [join(greeting, optionsList(ctx, roots, false))], greeting: greets };
}

function optionsList(ctx: BotContext, nodes: QueueOptionRecord[], nested: boolean): string {
  const lines = nodes.map((node) => menuLine(node.option, node.title));
  if (nested) lines.push(menuLine('0', 'Menu anterior'));
  if (nested || ctx.queues.length > 1) lines.push(menuLine('#', 'Menu inicial'));
  return lines.join('\n');
}

/** BEHAVIOUR: children as `*[ n ]* - title`, `0` the parent, `#` the main menu, a leaf ends the bot. */
async function walkOptions(ctx: BotContext, queue: QueueRecord): Promise<BotDecision> {
  const tree = await ctx.loadTree(queue.id);
  const input = ctx.body.trim();
  const currentId = ctx.ticket.bot?.optionId ?? null;
  const current = currentId === null ? undefined : tree.find((node) => node.id === currentId);
  const keep = (optionId: number | null): BotState => ({ ...(ctx.ticket.bot as BotState), stage: 'options', optionId });

  const backToMain = () => {
    if (ctx.queues.length > 1) return mainMenu(ctx, { queueId: null });
    return { patch: { bot: keep(null) }, replies: [optionsList(ctx, childrenOf(tree, null), false)] };
  };
  if (input === '#') return backToMain();
  if (input === '0') {
    if (!current) return backToMain();
    const parentId = current.parentId ?? null;
    return { patch: { bot: keep(parentId) }, replies: [optionsList(ctx, childrenOf(tree, parentId), parentId !== null)] };
  }
  const siblings = childrenOf(tree, current?.id ?? null);
  const chosen = siblings.find((node) => node.option.trim() === input);
  if (chosen) {
    const children = childrenOf(tree, chosen.id);
    if (!children.length) return { patch: { chatbot: false, bot: null }, replies: chosen.message.trim() ? [chosen.message] : [] };
    return { patch: { bot: keep(chosen.id) }, replies: [join(chosen.message, optionsList(ctx, children, true))] };
  }
  // Anything else repeats the current list, counted like the main menu.
  const bot = countMenu(ctx, 'options', current?.id ?? null);
  if (!bot) return NOTHING;
  return { patch: { bot }, replies: [optionsList(ctx, siblings, current !== undefined)] };
}
