/**
 * Shared by the messages, media and external-API tests: DynamoDB Local + cognito-local (users
 * harness), the session-commands FIFO queue on fauxqs, and the media bucket on s3rver. Handlers are
 * driven with API Gateway v2 events, multipart bodies base64-encoded as API Gateway delivers them,
 * and answers keep their headers (Location, Retry-After).
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { expect } from 'vitest';
import type { TicketEvent } from '#contracts/tickets';
import { resolveContact } from '#domain/contacts/resolve';
import { defaultEffects } from '#domain/messages/effects';
import { messageIdAt } from '#domain/messages/message-id';
import { findOrCreateTicket } from '#domain/tickets/find-or-create';
import type { HttpLambdaHandler } from '#http/handler';
import { matches } from '#realtime/audience';
import { db, table } from '#storage/db';
import { type MessageRecord, storeMessage } from '#storage/messages/messages';
import { tenantPk } from '#storage/table';
import type { TicketRecord, TicketStatePatch } from '#storage/tickets/record';
import { getTicket, updateTicketState } from '#storage/tickets/tickets';
import type { ConnectionRecord } from '#storage/ws-connections';
import { type LocalS3, startS3 } from '../../infra/local/s3.ts';
import { httpRoutes, routeKey } from '../src/routes.ts';
import { type CommandQueue, startCommandQueue } from './connections-harness.ts';
import { freePort } from './support/processes.ts';
import { call, type Stack, startStack, type Tenant, uniq } from './users-harness.ts';

export const BUCKET = 'conversa-media-test';

export interface Env {
  stack: Stack;
  commands: CommandQueue;
  s3: LocalS3;
  stop(): Promise<void>;
}

/** `streams`: the table's stream, for a file that runs its consumers (support/table-streams.ts). */
export async function startEnv(options: { streams?: boolean } = {}): Promise<Env> {
  const [stack, commands, s3] = await Promise.all([
    startStack(options),
    startCommandQueue(),
    freePort().then((port) => startS3({ port, buckets: [BUCKET] })),
  ]);
  process.env.MEDIA_BUCKET = BUCKET;
  process.env.S3_ENDPOINT = s3.endpoint;
  return {
    stack,
    commands,
    s3,
    stop: async () => {
      await Promise.all([stack.stop(), commands.stop(), s3.stop()]);
    },
  };
}

export async function readObject(key: string): Promise<Buffer | undefined> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
  } catch {
    return undefined;
  }
}

/** A connection of the tenant (through the API, as an admin makes one), with its token. */
export async function createConnection(t: Tenant): Promise<{ id: number; token: string }> {
  const token = uniq('api-token-');
  const res = await call('POST /whatsapp', { token: t.admin.token, body: { name: uniq('Wa '), token } });
  if (res.status !== 201) throw new Error(`connection: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token };
}

/**
 * Ticket ids are per company, so A's id N may be a ticket of A's own: B's tickets start past any
 * id A reaches, so "B's ticket id" really names B's ticket only.
 */
export async function skipTicketIds(companyId: number, to = 1_000_000): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: tenantPk(companyId), sk: 'COUNTER#TICKET' },
      UpdateExpression: 'SET #v = :to',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':to': to },
    }),
  );
}

/** A contact and its ticket on the connection, then moved to `patch` (open and assigned, say). */
export async function seedTicket(t: Tenant, connectionId: number, patch: TicketStatePatch = {}): Promise<TicketRecord> {
  const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const contact = await resolveContact(
    { companyId: t.companyId, connectionId, number, isGroup: false, fromMe: false, pushName: uniq('Contact ') },
    defaultEffects,
  );
  const { ticket } = await findOrCreateTicket({ companyId: t.companyId, connectionId, contact, reopenWithinHours: 0, now: new Date() });
  return Object.keys(patch).length ? updateTicketState(ticket, patch) : ticket;
}

/** An inbound message stored as the pipeline stores one (unread +1); `extra` sets more fields (its media, say). */
export async function storeInbound(
  ticket: TicketRecord,
  body: string,
  at = Date.now(),
  extra: Partial<MessageRecord> = {},
): Promise<MessageRecord> {
  const createdAt = new Date(at).toISOString();
  const message: MessageRecord = {
    id: messageIdAt(at),
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    waId: uniq('WA'),
    body,
    fromMe: false,
    read: false,
    mediaType: null,
    mediaPath: null,
    mediaUrl: null,
    mediaName: null,
    ack: 0,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: null,
    quotedMsg: null,
    contact: { name: ticket.contact.name },
    pending: false,
    error: null,
    bot: false,
    userId: null,
    createdAt,
    updatedAt: createdAt,
    ...extra,
  };
  const current = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
  await storeMessage(message, current, { unread: true, requireActive: false });
  return message;
}

export interface InvokeOptions {
  token?: string;
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  json?: unknown;
  /** A multipart body (see multipart()) or any raw bytes with their content type. */
  raw?: { contentType: string; body: Buffer };
  /** The client address API Gateway reports (requestContext.http.sourceIp). */
  sourceIp?: string;
}

export interface InvokeResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  body: any;
  headers: Record<string, string>;
}

const handlers = new Map<string, Promise<HttpLambdaHandler>>();

export async function invoke(key: string, options: InvokeOptions = {}): Promise<InvokeResult> {
  const route = httpRoutes.find((r) => routeKey(r) === key);
  if (!route) throw new Error(`No route ${key}`);
  const params = Object.fromEntries(Object.entries(options.params ?? {}).map(([k, v]) => [k, String(v)]));
  let loaded = handlers.get(route.fn);
  if (!loaded) {
    loaded = import(`../src/handlers/http/${route.fn}.ts`).then((mod: { handler: HttpLambdaHandler }) => mod.handler);
    handlers.set(route.fn, loaded);
  }
  const event = {
    version: '2.0',
    routeKey: key,
    rawPath: route.path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers: {
      'content-type': options.raw?.contentType ?? 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    queryStringParameters: options.query,
    pathParameters: Object.keys(params).length ? params : undefined,
    body: options.raw ? options.raw.body.toString('base64') : options.json === undefined ? undefined : JSON.stringify(options.json),
    isBase64Encoded: Boolean(options.raw),
    requestContext: { http: { method: route.method, path: route.path, sourceIp: options.sourceIp ?? '127.0.0.1' } },
  } as unknown as APIGatewayProxyEventV2;
  const res = await (await loaded)(event);
  return {
    status: res.statusCode ?? 200,
    body: res.body ? JSON.parse(res.body) : undefined,
    headers: Object.fromEntries(Object.entries(res.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
  };
}

export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body as a browser's FormData would send it. */
export function multipart(parts: FormPart[]): { contentType: string; body: Buffer } {
  const boundary = `----conversa${uniq('')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

/** A ticket event as published through `Effects.publish`, with the audience it was sent to. */
export interface Published {
  data: unknown;
  target: unknown;
}

/**
 * The deletes among `published` (asserted to be one, for `ticketId`) and whether a plain user's
 * socket of the company, shaped by `over`, is in its audience.
 */
export function deleteReaches(published: Published[], ticketId: number, companyId: number) {
  const deletes = published.filter((p) => (p.data as TicketEvent).action === 'delete');
  expect(deletes.map((p) => p.data)).toEqual([{ action: 'delete', ticketId }]);
  const target = deletes[0]?.target as Parameters<typeof matches>[0];
  return (over: Partial<ConnectionRecord>) =>
    matches(target, {
      companyId,
      profile: 'user',
      super: false,
      queueIds: [],
      allTicket: 'desabled',
      ...over,
    } as ConnectionRecord);
}
