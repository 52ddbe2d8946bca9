/**
 * Runs the rating reply or the chatbot for one stored inbound message and commits the outcome in
 * ONE transaction: the ticket's state change (conditional on its revision), the replies as pending
 * messages, and the `botDone` mark on the message's WhatsApp link (conditional on not being done).
 * So a retried event never runs the bot twice, and a concurrent change to the ticket (an attendant
 * accepting it) makes the bot decide again on the fresh state instead of overwriting it.
 * The transaction itself is storage/chatbot-turns.ts. Sending the replies happens after the commit
 * (dispatchOutgoing), resumable from `replyIds`.
 * When the bot has nothing to do (no state change, no reply: most messages of a ticket already in
 * a queue or with an attendant) nothing is committed here; the caller marks `botDone` with its own
 * last write to the link, and a retry before that simply decides again.
 */
import { derivedMessageId } from '#domain/messages/message-id';
import { buildOutgoingMessage } from '#domain/messages/send';
import { commitChatbotTurn } from '#storage/chatbot-turns';
import { getCompanyCached } from '#storage/companies/companies';
import type { ConnectionRecord } from '#storage/connections';
import type { MessageRecord } from '#storage/messages/messages';
import { type QueueOptionRecord, queueTreeCached } from '#storage/queues/options';
import type { QueueRecord } from '#storage/queues/queues';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket } from '#storage/tickets/tickets';
import { type BotDecision, botApplies, decide, decideRating } from './decide.ts';

export interface ChatbotInput {
  ticket: TicketRecord;
  inbound: MessageRecord;
  waId: string;
  connection: ConnectionRecord;
  queues: QueueRecord[];
  settings: { sendGreetingMessageOneQueues: string; scheduleType: string; timezone: string };
  now: Date;
}

export interface ChatbotOutcome {
  ticket: TicketRecord;
  replies: MessageRecord[];
  /** False when there was nothing to commit: `botDone` is the caller's to record. */
  committed: boolean;
}

const MAX_ATTEMPTS = 4;

async function decideFor(
  input: ChatbotInput,
  ticket: TicketRecord,
  loadTree: (queueId: number) => Promise<QueueOptionRecord[]>,
): Promise<BotDecision | undefined> {
  if (input.inbound.fromMe) return undefined;
  if (ticket.awaitingRating) {
    const queue = input.queues.find((q) => q.id === ticket.queueId);
    return decideRating(input.inbound.body, queue?.complationMessage || input.connection.complationMessage, input.now);
  }
  if (!botApplies(ticket)) return undefined;
  const companySchedules = input.settings.scheduleType === 'company' ? ((await getCompanyCached(ticket.companyId))?.schedules ?? []) : [];
  return decide({
    ticket,
    body: input.inbound.body,
    now: input.now,
    connection: input.connection,
    queues: input.queues,
    settings: input.settings,
    companySchedules,
    loadTree,
  });
}

const commitsSomething = (decision: BotDecision | undefined): decision is BotDecision =>
  !!decision && (decision.replies.length > 0 || Object.keys(decision.patch).length > 0);

/** The queue trees a turn reads, each once. */
function treeLoader(companyId: number): (queueId: number) => Promise<QueueOptionRecord[]> {
  const trees = new Map<number, Promise<QueueOptionRecord[]>>();
  return (queueId) => {
    const known = trees.get(queueId);
    if (known) return known;
    const tree = queueTreeCached(companyId, queueId);
    trees.set(queueId, tree);
    return tree;
  };
}

/**
 * Whether a turn on `input.ticket` as it is would commit anything (a state change or a reply). The
 * inbound pipeline asks before storing a message: when not, the store records `botDone` itself,
 * conditional on the ticket's revision, and the message needs no write after it.
 */
export async function chatbotWouldAct(input: ChatbotInput): Promise<boolean> {
  return commitsSomething(await decideFor(input, input.ticket, treeLoader(input.ticket.companyId)));
}

export async function runChatbot(input: ChatbotInput): Promise<ChatbotOutcome> {
  const loadTree = treeLoader(input.ticket.companyId);
  const { companyId, whatsappId } = input.inbound;
  let ticket = input.ticket;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const decision = await decideFor(input, ticket, loadTree);
    if (!commitsSomething(decision)) return { ticket, replies: [], committed: false };
    const replies: MessageRecord[] = [];
    for (const [i, body] of decision.replies.entries()) {
      // Replies sort just after the message they answer, in order.
      const at = new Date(Math.max(input.now.getTime(), Date.parse(input.inbound.createdAt)) + i + 1);
      replies.push(
        await buildOutgoingMessage(
          {
            companyId,
            ticket,
            body,
            bot: true,
            origin: i === 0 && decision.greeting ? 'greeting' : 'bot',
            id: derivedMessageId(at.getTime(), `${input.inbound.id}:${i}`, ticket.id),
          },
          at,
        ),
      );
    }
    const patch = { ...decision.patch };
    const last = replies.at(-1);
    if (last) Object.assign(patch, { lastMessage: last.body, lastMessageAt: Date.parse(last.createdAt) });
    const outcome = await commitChatbotTurn({
      ticket,
      patch,
      replies,
      inbound: { companyId, whatsappId, waId: input.waId },
      now: input.now,
    });
    if (outcome.status === 'committed') return { ticket: outcome.ticket, replies, committed: true };
    // Another run already committed the bot for this message: nothing to do.
    if (outcome.status === 'alreadyDone')
      return { ticket: (await getTicket(companyId, ticket.id)) ?? ticket, replies: [], committed: true };
    const fresh = await getTicket(companyId, ticket.id);
    if (!fresh) throw new Error(`Ticket ${ticket.id} vanished under the chatbot`);
    ticket = fresh;
  }
  throw new Error(`Chatbot could not commit on ticket ${ticket.id} after ${MAX_ATTEMPTS} attempts`);
}
