/**
 * A fake OpenAI-compatible API under /openai/v1: chat completions and audio transcriptions, with
 * OpenAI's answer and error shapes. Any key works but two: `sk-invalid` (401) and `sk-ratelimited` (429).
 * The answer to the last user message M is `Resposta: M`; M containing `#transferir` answers the
 * transfer phrase the prompts are told to use. A transcription is the audio's bytes read as UTF-8 text
 * when they are (so a test "records" what the contact says), else `[áudio de N bytes]`.
 * GET /openai/requests?apiKey=K lists what K sent, oldest first.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, json, parseJson, type RequestLog, readBody, scripted } from './http.ts';

export const TRANSFER_ANSWER = 'Ação: Transferir para o setor de atendimento';

export interface OpenAiRequest {
  kind: 'chat' | 'transcription';
  apiKey: string;
  at: string;
  /** The chat request's JSON as sent; for a transcription its form fields and the file's name, type and size. */
  body: Record<string, unknown>;
}

const openAiError = (status: number, message: string, type: string, code: string | null) =>
  new HttpError(status, { error: { message, type, param: null, code } });

function apiKeyOf(req: IncomingMessage): string {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const key = match?.[1]?.trim();
  if (!key)
    throw openAiError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header.",
      'invalid_request_error',
      null,
    );
  if (key === 'sk-invalid')
    throw openAiError(
      401,
      'Incorrect API key provided: sk-inval*****. You can find your API key at https://platform.openai.com/account/api-keys.',
      'invalid_request_error',
      'invalid_api_key',
    );
  if (key === 'sk-ratelimited')
    throw openAiError(429, 'Rate limit reached for requests per min (RPM). Please try again in 20s.', 'requests', 'rate_limit_exceeded');
  return key;
}

export function openAiFake(log: RequestLog<OpenAiRequest>, timers: Set<NodeJS.Timeout>) {
  return async (req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> => {
    const path = url.pathname.replace(/^\/openai/, '');
    if (req.method === 'GET' && path === '/requests') {
      const key = url.searchParams.get('apiKey');
      return json(
        res,
        200,
        log.filter((entry) => !key || entry.apiKey === key),
      );
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const apiKey = apiKeyOf(req);
      const body = parseJson(await readBody(req), () =>
        openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null),
      );
      if (typeof body.model !== 'string' || !body.model)
        throw openAiError(400, 'you must provide a model parameter', 'invalid_request_error', null);
      if (!Array.isArray(body.messages) || body.messages.length === 0)
        throw openAiError(400, "Invalid 'messages': empty array.", 'invalid_request_error', 'empty_array');
      log.add({ kind: 'chat', apiKey, at: new Date().toISOString(), body });
      const lastUser = [...body.messages]
        .reverse()
        .find(
          (m): m is { role: string; content: unknown } => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'user',
        );
      const said = typeof lastUser?.content === 'string' ? lastUser.content : '';
      if (await scripted(said, res, timers)) return;
      const content = said.includes('#transferir') ? `${TRANSFER_ANSWER}. Um momento, por favor.` : `Resposta: ${said}`;
      const promptTokens = body.messages.reduce(
        (sum: number, m) => sum + Math.ceil(String((m as { content?: unknown }).content ?? '').length / 4),
        0,
      );
      const completionTokens = Math.ceil(content.length / 4);
      return json(res, 200, {
        id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    }
    if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
      const apiKey = apiKeyOf(req);
      const parts = parseMultipart(req.headers['content-type'] ?? '', await readBody(req));
      const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
      const model = parts.find((part) => part.name === 'model')?.data.toString('utf8');
      if (!file) throw openAiError(400, "Missing required parameter: 'file'.", 'invalid_request_error', 'missing_required_parameter');
      if (!model) throw openAiError(400, "Missing required parameter: 'model'.", 'invalid_request_error', 'missing_required_parameter');
      log.add({
        kind: 'transcription',
        apiKey,
        at: new Date().toISOString(),
        body: { model, filename: file.filename, contentType: file.contentType, size: file.data.length },
      });
      const text = spokenText(file.data);
      if (await scripted(text, res, timers)) return;
      return json(res, 200, { text });
    }
    throw openAiError(404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null);
  };
}

function spokenText(audio: Buffer): string {
  const text = audio.toString('utf8');
  // Real audio is binary: invalid UTF-8, or control characters other than whitespace.
  const readable =
    text.length > 0 && !text.includes('\uFFFD') && [...text].every((c) => c >= ' ' || c === '\n' || c === '\r' || c === '\t');
  return readable ? text.trim() : `[áudio de ${audio.length} bytes]`;
}

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Enough of multipart/form-data (RFC 7578) for what fetch's FormData sends. */
function parseMultipart(contentType: string, body: Buffer): Part[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\/form-data/i.test(contentType) || !boundary)
    throw openAiError(400, 'Expected a multipart/form-data body.', 'invalid_request_error', null);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    if (split !== -1) {
      const headers = chunk.subarray(0, split).toString('utf8');
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
      if (name !== undefined) parts.push({ name, filename, contentType: type, data: chunk.subarray(split + 4) });
    }
    start = next;
  }
  return parts;
}
