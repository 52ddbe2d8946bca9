/**
 * One turn of the prompt or integration that holds a ticket (issue 13): the `bot-turns` consumer
 * runs it for each contact message the inbound pipeline queued (queue.ts).
 *
 *   1. read    the ticket and the message; nothing to do unless the bot still holds the ticket
 *              (an attendant who accepted it, or a resolve, stopped it: the turn is dropped)
 *   2. ask     the provider (answers.ts); a failure of any kind hands the ticket back to the
 *              attendants with a note and logs the error with the company id: the contact's
 *              message is already stored, so nothing is lost
 *   3. commit  the answers as the bot's pending messages, the ticket's change and a once-per-message
 *              mark in ONE transaction (storage/chatbot-turns.ts commitBotTurn), conditional on the
 *              ticket's revision: an attendant who took the ticket meanwhile wins, the answer is dropped
 *   4. send    each answer (Typebot's delay between bubbles), then the ticket's events
 * A redelivered turn finds its mark and only sends what is still pending (the host sends an id once).
 */
import { logger } from '#commons/logger';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import { derivedMessageId } from '#domain/messages/message-id';
import { buildOutgoingMessage, dispatchOutgoing } from '#domain/messages/send';
import { afterTicketChange } from '#domain/tickets/auto-assign';
import { historyItems } from '#domain/tickets/history';
import { publishTicketLost } from '#domain/tickets/notify';
import { loadTicketRefs, presentTicket } from '#domain/tickets/present';
import { publishTicket } from '#domain/tickets/publish';
import { deleteBotSession, getBotSession, putBotSession } from '#storage/bot-sessions';
import { commitBotTurn } from '#storage/chatbot-turns';
import { getContact } from '#storage/contacts/contacts';
import { getItem } from '#storage/db';
import { getMessage, listMessagesPage, type MessageRecord } from '#storage/messages/messages';
import { getPrompt } from '#storage/prompts';
import { getQueueIntegration } from '#storage/queue-integrations';
import { createTicketNote, newTicketNoteId } from '#storage/tickets/notes';
import type { TicketRecord } from '#storage/tickets/record';
import { getTicket, ticketPk } from '#storage/tickets/tickets';
import { type BotAnswer, handBack, integrationAnswer, promptAnswer } from './answers.ts';
import { type BotClients, defaultBotClients } from './clients.ts';
import { botHolds } from './holds.ts';
import type { BotTurnMessage } from './turn-message.ts';

export interface BotTurnDeps {
  effects: Effects;
  clients: BotClients;
  sleep(ms: number): Promise<void>;
}

export const defaultBotTurnDeps: BotTurnDeps = {
  effects: defaultEffects,
  clients: defaultBotClients,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export type BotTurnOutcome = 'answered' | 'handedBack' | 'failed' | 'skipped' | 'resent';

/** Longest pause between two bubbles, whatever the integration says: the turn must end inside the queue's visibility timeout. */
const MAX_GAP_MS = 5_000;
const COMMIT_ATTEMPTS = 3;
/** Who signs the notes the bots leave (a system note: no attendant wrote it). */
const NOTE_AUTHOR = { id: 0, name: 'Conversa' };

export async function runBotTurn(turn: BotTurnMessage, deps: BotTurnDeps = defaultBotTurnDeps): Promise<BotTurnOutcome> {
  const { companyId, ticketId, messageId } = turn;
  const [read, inbound, done] = await Promise.all([
    getTicket(companyId, ticketId),
    getMessage(companyId, ticketId, messageId),
    getItem<{ replyIds: string[] }>(ticketPk(companyId, ticketId), `BOTTURN#${messageId}`),
  ]);
  if (!read || !inbound || inbound.fromMe) return 'skipped';
  if (done) return resend(read, done.replyIds, deps);
  if (!botHolds(read)) return 'skipped';

  const started = Date.now();
  let answer: BotAnswer;
  let failure: string | undefined;
  try {
    answer = await ask(read, inbound, deps);
  } catch (error) {
    const { provider, status } = error as { provider?: string; status?: unknown };
    failure = `${provider ?? 'bot'}${status === undefined ? '' : ` ${String(status)}`}`;
    logger.error('bot turn failed: the ticket goes back to the attendants', {
      companyId,
      ticketId,
      promptId: read.promptId,
      integrationId: read.integrationId,
      provider,
      status: status === undefined ? undefined : String(status),
      error: error as Error,
    });
    answer = { replies: [], patch: handBack(read, read.promptId ? (await getPrompt(companyId, read.promptId))?.queueId : null) };
  }
  const providerMs = Date.now() - started;

  let ticket = read;
  for (let attempt = 0; attempt < COMMIT_ATTEMPTS; attempt++) {
    const now = deps.effects.now();
    const replies = await buildReplies(ticket, inbound, answer.replies, now);
    const patch = { ...answer.patch };
    const last = replies.at(-1);
    if (last) Object.assign(patch, { lastMessage: last.body, lastMessageAt: Date.parse(last.createdAt) });
    const history = botHistory(ticket, { ...ticket, ...patch }, failure, now.toISOString());
    const outcome = await commitBotTurn({ ticket, patch, replies, inboundMessageId: inbound.id, now, history });
    if (outcome.status === 'alreadyDone') return 'skipped';
    if (outcome.status === 'committed') {
      await afterCommit(read, outcome.ticket, replies, answer, failure, deps);
      logger.info('bot turn', { companyId, ticketId, replies: replies.length, providerMs, ownMs: Date.now() - started - providerMs });
      if (failure) return 'failed';
      return outcome.ticket.useIntegration ? 'answered' : 'handedBack';
    }
    const fresh = await getTicket(companyId, ticketId);
    // An attendant took the ticket (or it was resolved) while the provider thought: they win.
    if (!fresh || !botHolds(fresh)) return 'skipped';
    ticket = fresh;
  }
  throw new Error(`bot turn on ticket ${companyId}:${ticketId} lost ${COMMIT_ATTEMPTS} races`);
}

/**
 * The conversation's line for a turn that ends the bot's hold (tickets/thread-events.ts): a failure
 * with its reason, or the hand-back its answer asked for; with the queue's milestone the change makes.
 */
function botHistory(ticket: TicketRecord, after: TicketRecord, failure: string | undefined, at: string) {
  const handedBack = ticket.useIntegration && !after.useIntegration;
  const kinds = failure ? (['botFailed'] as const) : handedBack ? (['botHandedBack'] as const) : [];
  return historyItems([...kinds], ticket, after, null, at, failure);
}

async function ask(ticket: TicketRecord, inbound: MessageRecord, deps: BotTurnDeps): Promise<BotAnswer> {
  const { companyId } = ticket;
  if (ticket.integrationId) {
    const [integration, contact, session] = await Promise.all([
      getQueueIntegration(companyId, ticket.integrationId),
      getContact(companyId, ticket.contactId),
      getBotSession(companyId, ticket.id),
    ]);
    if (!integration) throw Object.assign(new Error('the integration was removed'), { provider: 'integration', status: 'removed' });
    return integrationAnswer({
      integration,
      ticket,
      inbound,
      contact: { name: contact?.name ?? '', number: contact?.number ?? '' },
      session,
      now: deps.effects.now(),
      clients: deps.clients,
    });
  }
  const prompt = ticket.promptId ? await getPrompt(companyId, ticket.promptId) : undefined;
  if (!prompt) throw Object.assign(new Error('the prompt was removed'), { provider: 'prompt', status: 'removed' });
  const page = await listMessagesPage(companyId, ticket.id, { limit: Math.max(1, prompt.maxMessages) });
  return promptAnswer({ prompt, ticket, inbound, history: [...page.messages].reverse(), clients: deps.clients });
}

/** The answers as the bot's pending messages, just after the message they answer, in order; ids fixed per (message, index). */
function buildReplies(ticket: TicketRecord, inbound: MessageRecord, bodies: string[], now: Date): Promise<MessageRecord[]> {
  const base = Math.max(now.getTime(), Date.parse(inbound.createdAt));
  return Promise.all(
    bodies.map((body, i) => {
      const at = new Date(base + i + 1);
      return buildOutgoingMessage(
        {
          companyId: ticket.companyId,
          ticket,
          body,
          bot: true,
          origin: 'bot',
          id: derivedMessageId(at.getTime(), `${inbound.id}:bot:${i}`, ticket.id),
        },
        at,
      );
    }),
  );
}

async function afterCommit(
  before: TicketRecord,
  ticket: TicketRecord,
  replies: MessageRecord[],
  answer: BotAnswer,
  failure: string | undefined,
  deps: BotTurnDeps,
) {
  const { companyId } = ticket;
  if (answer.session === null) await deleteBotSession(companyId, ticket.id);
  else if (answer.session) await putBotSession(companyId, ticket.id, answer.session);
  const gap = Math.min(MAX_GAP_MS, Math.max(0, answer.gapMs ?? 0));
  // The ticket as just committed, its contact and names, read once for all the replies' events.
  const [contact, names] = replies.length
    ? await Promise.all([getContact(companyId, ticket.contactId), loadTicketRefs(ticket)])
    : [undefined, undefined];
  for (const [i, reply] of replies.entries()) {
    if (i > 0 && gap) await deps.sleep(gap);
    await dispatchOutgoing([reply], ticket, deps.effects, {}, { current: ticket, contact, names });
  }
  if (failure) {
    const at = deps.effects.now().toISOString();
    await createTicketNote({
      id: await newTicketNoteId(companyId),
      companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      userId: NOTE_AUTHOR.id,
      user: NOTE_AUTHOR,
      note: `O assistente não respondeu (${failure}). O atendimento segue com a equipe.`,
      createdAt: at,
      updatedAt: at,
    });
  }
  if (!replies.length) await publishTicket(deps.effects, presentTicket(ticket, await loadTicketRefs(ticket)));
  await publishTicketLost(deps.effects, before, ticket);
  // Handed back to its queue: an attendant with room takes it now (issue 22 §2).
  await afterTicketChange(deps.effects, before, ticket);
}

/** A redelivered turn after its commit: send what is still pending (the host sends each id once). */
async function resend(ticket: TicketRecord, replyIds: string[], deps: BotTurnDeps): Promise<BotTurnOutcome> {
  const replies = (await Promise.all(replyIds.map((id) => getMessage(ticket.companyId, ticket.id, id)))).filter(
    (reply): reply is MessageRecord => reply !== undefined && Boolean(reply.pending) && reply.ack === 0,
  );
  if (replies.length) await dispatchOutgoing(replies, ticket, deps.effects);
  return 'resent';
}
