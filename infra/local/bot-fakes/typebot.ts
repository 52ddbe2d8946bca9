/**
 * A fake Typebot viewer under /typebot, speaking the chat API v1 (startChat, continueChat) with its
 * answer shapes: text bubbles as Slate rich text, `input` while the flow waits for the contact.
 *   slug `tres-bolhas`: three bubbles (the second with bold and a link, the third two paragraphs),
 *     then waits; the next message gets `Você disse: <text>` and the flow ends (the session with it).
 *   slug `botoes`: one bubble and a buttons input (Vendas, Suporte); the choice gets `Escolheu: <text>` and ends.
 *   any other slug: 404, as Typebot answers an unknown public id.
 * A finished, unknown or expired session is 404 (TRPC NOT_FOUND), as Typebot answers.
 * Control: POST /typebot/sessions/<id>/expire (or /typebot/sessions/expire for all) expires sessions;
 * GET /typebot/requests lists what was received.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, json, parseJson, type RequestLog, readBody, scripted } from './http.ts';

export const TYPEBOT_SLUG = 'tres-bolhas';

export interface TypebotRequest {
  at: string;
  path: string;
  body: Record<string, unknown>;
}

interface Session {
  slug: string;
  expired: boolean;
}

const notFound = (message: string) => new HttpError(404, { message, code: 'NOT_FOUND' });
const id = () => randomBytes(12).toString('base64url');
const paragraph = (...children: Record<string, unknown>[]) => ({ type: 'p', children });
const textBubble = (...paragraphs: Record<string, unknown>[]) => ({
  id: id(),
  type: 'text',
  content: { type: 'richText', richText: paragraphs },
});

/** `message` is a string (v1 clients) or `{type: 'text', text}` (newer ones). */
function messageText(body: Record<string, unknown>): string {
  const message = body.message;
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object' && typeof (message as { text?: unknown }).text === 'string')
    return (message as { text: string }).text;
  return '';
}

export function typebotFake(log: RequestLog<TypebotRequest>, timers: Set<NodeJS.Timeout>) {
  const sessions = new Map<string, Session>();

  return async (req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> => {
    const path = url.pathname.replace(/^\/typebot/, '');
    if (req.method === 'GET' && path === '/requests') return json(res, 200, log.all());
    if (req.method === 'POST' && path === '/sessions/expire') {
      for (const session of sessions.values()) session.expired = true;
      return json(res, 200, { expired: sessions.size });
    }
    const expire = /^\/sessions\/([^/]+)\/expire$/.exec(path);
    if (req.method === 'POST' && expire) {
      const session = sessions.get(decodeURIComponent(expire[1] as string));
      if (!session) throw notFound('Session not found.');
      session.expired = true;
      return json(res, 200, { expired: 1 });
    }

    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    const resume = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (req.method !== 'POST' || (!start && !resume)) throw notFound(`No procedure found on path "${path}"`);
    const body = parseJson(await readBody(req), () => new HttpError(400, { message: 'Invalid JSON body', code: 'BAD_REQUEST' }));
    log.add({ at: new Date().toISOString(), path, body });
    const text = messageText(body);

    if (start) {
      const slug = decodeURIComponent(start[1] as string);
      if (slug !== TYPEBOT_SLUG && slug !== 'botoes') throw notFound('Typebot not found');
      if (await scripted(text, res, timers)) return;
      const sessionId = id();
      sessions.set(sessionId, { slug, expired: false });
      const common = {
        sessionId,
        resultId: id(),
        typebot: { id: id(), version: '6', theme: {}, settings: { general: {}, typingEmulation: { enabled: true } } },
      };
      if (slug === 'botoes') {
        return json(res, 200, {
          ...common,
          messages: [textBubble(paragraph({ text: 'Com qual setor deseja falar?' }))],
          input: {
            id: id(),
            type: 'choice input',
            items: [
              { id: id(), content: 'Vendas' },
              { id: id(), content: 'Suporte' },
            ],
            options: {},
          },
        });
      }
      return json(res, 200, {
        ...common,
        messages: [
          textBubble(paragraph({ text: 'Olá! Eu sou o bot de teste.' })),
          textBubble(
            paragraph(
              { text: 'Veja as ' },
              { text: 'regras', bold: true },
              { text: ' em ' },
              { type: 'a', url: 'https://example.com/regras', children: [{ text: 'example.com/regras' }] },
            ),
          ),
          textBubble(paragraph({ text: 'Como posso ajudar?' }), paragraph({ text: 'Escreva sua pergunta.' })),
        ],
        input: { id: id(), type: 'text input', options: { labels: { placeholder: 'Digite sua resposta...' }, isLong: false } },
      });
    }

    const sessionId = decodeURIComponent(resume?.[1] as string);
    const session = sessions.get(sessionId);
    if (!session) throw notFound('Session not found.');
    if (session.expired) throw notFound('Session expired. You need to start a new session.');
    if (await scripted(text, res, timers)) return;
    // The flow's last block: Typebot ends the session with it.
    sessions.delete(sessionId);
    const words = session.slug === 'botoes' ? `Escolheu: ${text}` : `Você disse: ${text}`;
    return json(res, 200, { messages: [textBubble(paragraph({ text: words }))] });
  };
}
