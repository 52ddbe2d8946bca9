/**
 * Stand-ins for the four providers the AI prompts and queue integrations call (issue 13), on one
 * port: OpenAI (/openai/v1), Typebot (/typebot), an n8n/webhook receiver (/webhook) and Google's
 * token endpoint + Dialogflow ES (/dialogflow). Each file beside this one says its script; words in
 * the contact's message steer failures (http.ts: #lento, #lixo, #limite, #falha). `npm start` runs it
 * (OPENAI_BASE_URL, TRANSCRIPTION_BASE_URL and DIALOGFLOW_BASE_URL point the handlers here) and the
 * tests start it in process or read its URL with inject('botFakesUrl').
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DialogflowRequest, dialogflowFake } from './dialogflow.ts';
import { HttpError, json, RequestLog } from './http.ts';
import { type OpenAiRequest, openAiFake } from './openai.ts';
import { TYPEBOT_SLUG, type TypebotRequest, typebotFake } from './typebot.ts';
import { type WebhookRequest, webhookFake } from './webhook.ts';

export { TRANSFER_ANSWER } from './openai.ts';
export { TYPEBOT_SLUG } from './typebot.ts';

export interface BotFakes {
  /** The server's root. */
  url: string;
  /** OPENAI_BASE_URL and TRANSCRIPTION_BASE_URL. */
  openAiBaseUrl: string;
  /** What a tenant pastes as the Typebot URL, with TYPEBOT_SLUG as the slug. */
  typebotBaseUrl: string;
  /** A webhook/n8n URL that answers `Eco: <text>`. */
  webhookEchoUrl: string;
  /** DIALOGFLOW_BASE_URL. */
  dialogflowBaseUrl: string;
  close(): Promise<void>;
}

export async function startBotFakes(opts: { port?: number; host?: string } = {}): Promise<BotFakes> {
  const timers = new Set<NodeJS.Timeout>();
  let url = '';
  const routes = {
    openai: openAiFake(new RequestLog<OpenAiRequest>(), timers),
    typebot: typebotFake(new RequestLog<TypebotRequest>(), timers),
    webhook: webhookFake(new RequestLog<WebhookRequest>(), timers),
    dialogflow: dialogflowFake(new RequestLog<DialogflowRequest>(), timers, () => url),
  };
  const server = createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://localhost');
    const prefix = parsed.pathname.split('/')[1] as keyof typeof routes;
    const route = Object.hasOwn(routes, prefix) ? routes[prefix] : undefined;
    if (!route) {
      if (req.method === 'GET' && parsed.pathname === '/') return json(res, 200, describe(url));
      return json(res, 404, { error: 'not found' });
    }
    route(req, parsed, res).catch((error: unknown) => {
      if (error instanceof HttpError) return json(res, error.status, error.body);
      json(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openAiBaseUrl: `${url}/openai/v1`,
    typebotBaseUrl: `${url}/typebot`,
    webhookEchoUrl: `${url}/webhook/echo`,
    dialogflowBaseUrl: `${url}/dialogflow`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** GET /: what a person pastes where, as JSON. */
function describe(url: string): Record<string, string> {
  return {
    prompts: `any API key works (sk-invalid: 401, sk-ratelimited: 429); OPENAI_BASE_URL ${url}/openai/v1`,
    typebot: `URL ${url}/typebot, slug ${TYPEBOT_SLUG} (or botoes)`,
    webhook: `${url}/webhook/echo (also /webhook/handback, /webhook/texto, /webhook/vazio)`,
    dialogflow: `credentials JSON: GET ${url}/dialogflow/credentials?project=<project name>`,
    failures: 'words in the message: #lento (30 s), #lixo (unreadable 200), #limite (429), #falha (500)',
  };
}
