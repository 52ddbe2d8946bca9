/**
 * What a prompt or an integration answers to one contact message (issue 13), as replies to send and
 * the ticket's change: nothing is written here (turn.ts commits). The provider clients come in
 * `clients`, so tests run these against the local fakes or record what is asked.
 *
 * - AI prompt: the prompt as the system message, then the conversation's last `maxMessages`
 *   messages (ours as the assistant's). A reply that starts with the transfer marker hands the
 *   ticket to the prompt's queue (the queue it answers for, one link with the queue's Prompt
 *   field), pending for its attendants, and the prompt stops. Audio is transcribed when the
 *   prompt's voice option is on and a transcription endpoint is configured; otherwise the contact
 *   is asked to write.
 * - Typebot: a chat per ticket (startChat, then continueChat) kept `typebotExpires` minutes after
 *   the contact's last message; the finish keyword hands back, the restart keyword starts over with
 *   the restart message; a flow that ends hands back; an answer with no bubble gets the unknown text.
 * - n8n and webhook: the message POSTed as signed JSON; the replies sent; `handBack` hands back.
 * - Dialogflow: detect intent in the ticket's session; an end of conversation hands back.
 */
import type { ChatTurn } from '#adapters/openai';
import type { BotSessionRecord } from '#storage/bot-sessions';
import type { MessageRecord } from '#storage/messages/messages';
import type { PromptRecord } from '#storage/prompts';
import type { QueueIntegrationRecord } from '#storage/queue-integrations';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import type { BotClients } from './clients.ts';

/** The convention of the spec's peers: a reply that starts with this asks for a human. */
export const TRANSFER_MARKER = 'Ação: Transferir para o setor de atendimento';

/** Told to the model after the tenant's prompt, so it knows how to ask for the transfer. */
export const TRANSFER_INSTRUCTION = `Se o cliente pedir para falar com um atendente humano, ou se você não puder ajudar, responda começando exatamente com "${TRANSFER_MARKER}".`;

/** Sent to a contact's audio when it cannot be transcribed. */
export const AUDIO_FALLBACK = 'Desculpe, não consigo ouvir áudios. Por favor, escreva sua mensagem.';

/** Each provider call's bound: inside the queue's visibility timeout with room for the sends. */
export const PROVIDER_TIMEOUT_MS = 15_000;

export interface BotAnswer {
  replies: string[];
  /** The ticket's change: a hand-back or a transfer; empty while the bot keeps the ticket. */
  patch: TicketStatePatch;
  /** Pause between two replies (Typebot's delay between bubbles). */
  gapMs?: number;
  /** The Typebot chat to keep (undefined: leave it; null: forget it). */
  session?: BotSessionRecord | null;
}

/** The bot lets go: the ticket stays pending for the attendants (in its queue, or the fallback one). */
export const handBack = (ticket: TicketRecord, queueId?: number | null): TicketStatePatch => ({
  useIntegration: false,
  ...(ticket.queueId === null && queueId ? { queueId } : {}),
});

const sameWord = (a: string, b: string) => b.trim() !== '' && a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/** The text a bot sees of a message: its body, or what it is when it has none. */
export const textOf = (message: Pick<MessageRecord, 'body' | 'mediaType'>): string =>
  message.body?.trim() || (message.mediaType ? `[${message.mediaType}]` : '');

export async function promptAnswer(input: {
  prompt: PromptRecord;
  ticket: TicketRecord;
  inbound: MessageRecord;
  /** The conversation's last messages, oldest first, the inbound one last. */
  history: MessageRecord[];
  clients: BotClients;
}): Promise<BotAnswer> {
  const { prompt, ticket, inbound, clients } = input;
  const apiKey = await clients.openSecret(prompt.apiKeySealed);
  let heard = textOf(inbound);
  if (inbound.mediaType === 'audio') {
    if (prompt.voice === 'texto' || !clients.transcriptionConfigured() || !inbound.mediaPath)
      return { replies: [AUDIO_FALLBACK], patch: {} };
    heard = await clients.transcribeAudio({
      apiKey,
      audio: await clients.readMedia(inbound.mediaPath),
      filename: inbound.mediaName || 'audio.ogg',
      mimetype: 'audio/ogg',
      timeoutMs: PROVIDER_TIMEOUT_MS,
    });
  }
  // Private notes are the attendants' (outbound/note.ts): never told to the model that answers the contact.
  const turns: ChatTurn[] = input.history
    .filter((message) => !message.isDeleted && !message.isPrivate && message.id !== inbound.id)
    .map((message) => ({ role: message.fromMe ? 'assistant' : 'user', content: textOf(message) }) as ChatTurn)
    .filter((turn) => turn.content !== '');
  const reply = (
    await clients.chatCompletion({
      apiKey,
      messages: [
        { role: 'system', content: `${prompt.prompt.trim()}\n\n${TRANSFER_INSTRUCTION}` },
        ...(prompt.maxMessages > 1 ? turns.slice(-(prompt.maxMessages - 1)) : []),
        { role: 'user', content: heard },
      ],
      maxTokens: prompt.maxTokens,
      temperature: prompt.temperature,
      timeoutMs: PROVIDER_TIMEOUT_MS,
    })
  ).trim();
  if (reply.toLocaleLowerCase().startsWith(TRANSFER_MARKER.toLocaleLowerCase())) {
    const rest = reply
      .slice(TRANSFER_MARKER.length)
      .replace(/^[\s.:!-]+/, '')
      .trim();
    return {
      replies: rest ? [rest] : [],
      patch: { useIntegration: false, status: 'pending', userId: null, queueId: prompt.queueId || ticket.queueId },
    };
  }
  return { replies: reply ? [reply] : [], patch: {} };
}

export async function integrationAnswer(input: {
  integration: QueueIntegrationRecord;
  ticket: TicketRecord;
  inbound: MessageRecord;
  contact: { name: string; number: string };
  session: BotSessionRecord | undefined;
  now: Date;
  clients: BotClients;
}): Promise<BotAnswer> {
  const { integration, ticket, inbound, clients } = input;
  const text = textOf(inbound);
  switch (integration.type) {
    case 'typebot':
      return typebotAnswer(input, text);
    case 'n8n':
    case 'webhook': {
      const answer = await clients.postToWebhook({
        url: integration.urlN8N,
        secret: integration.signingSecretSealed ? await clients.openSecret(integration.signingSecretSealed) : '',
        payload: {
          event: 'message',
          companyId: ticket.companyId,
          integration: { id: integration.id, name: integration.name, type: integration.type },
          ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
          contact: input.contact,
          message: { id: inbound.id, body: inbound.body, mediaType: inbound.mediaType, createdAt: inbound.createdAt },
        },
        timeoutMs: PROVIDER_TIMEOUT_MS,
      });
      return { replies: answer.replies, patch: answer.handBack ? handBack(ticket) : {} };
    }
    case 'dialogflow': {
      const answer = await clients.detectIntent({
        credentialsJson: await clients.openSecret(integration.jsonContentSealed),
        projectName: integration.projectName,
        sessionId: `${ticket.companyId}-${ticket.id}`,
        text,
        language: integration.language,
        timeoutMs: PROVIDER_TIMEOUT_MS,
      });
      return { replies: answer.replies, patch: answer.endConversation ? handBack(ticket) : {} };
    }
  }
}

async function typebotAnswer(input: Parameters<typeof integrationAnswer>[0], text: string): Promise<BotAnswer> {
  const { integration, ticket, clients, now } = input;
  const gapMs = integration.typebotDelayMessage;
  if (sameWord(text, integration.typebotKeywordFinish)) return { replies: [], patch: handBack(ticket), session: null };
  const expiresMs = integration.typebotExpires * 60_000;
  let session =
    input.session?.integrationId === integration.id && (expiresMs <= 0 || now.getTime() - Date.parse(input.session.lastAt) < expiresMs)
      ? input.session
      : undefined;
  const before: string[] = [];
  if (sameWord(text, integration.typebotKeywordRestart)) {
    session = undefined;
    if (integration.typebotRestartMessage.trim()) before.push(integration.typebotRestartMessage);
  }
  const base = { baseUrl: integration.urlN8N, timeoutMs: PROVIDER_TIMEOUT_MS };
  let turn: Awaited<ReturnType<BotClients['startTypebotChat']>> | undefined;
  if (session) {
    try {
      turn = await clients.continueTypebotChat({ ...base, sessionId: session.sessionId, message: text });
    } catch (error) {
      // Typebot forgot the chat (its own expiry): start again rather than fail the contact.
      if ((error as { status?: unknown }).status !== 404) throw error;
    }
  }
  turn ??= await clients.startTypebotChat({ ...base, slug: integration.typebotSlug, message: text });
  const bubbles =
    turn.bubbles.length || turn.ended ? turn.bubbles : integration.typebotUnknownMessage.trim() ? [integration.typebotUnknownMessage] : [];
  if (turn.ended) return { replies: [...before, ...bubbles], patch: handBack(ticket), gapMs, session: null };
  return {
    replies: [...before, ...bubbles],
    patch: {},
    gapMs,
    session: { integrationId: integration.id, sessionId: turn.sessionId, lastAt: now.toISOString() },
  };
}
