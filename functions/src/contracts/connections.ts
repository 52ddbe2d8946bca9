import * as z from 'zod';
import { messages } from './common.ts';

/** SPEC 4 "Connection status". */
export const connectionStatuses = ['qrcode', 'DISCONNECTED', 'CONNECTED', 'PAIRING', 'TIMEOUT', 'OPENING'] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];

/** Statuses that light the red '!' on the Connections menu entry (SPEC 2 "Side menu"). */
export const alertStatuses: readonly ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

const nameMessages = { tooShort: '¡Demasiado corto!', tooLong: '¡Demasiado largo!', required: 'Requerido' } as const;
const optionalText = z.string().max(4000).optional().default('');
const minutes = z.coerce.number().int().min(0).max(525_600);
const optionalId = z.coerce.number().int().positive().nullable().optional().default(null);

/** The external API's credential: empty (no API access) or long enough not to be guessed. */
export const CONNECTION_TOKEN_MIN = 16;
const connectionToken = z
  .string()
  .trim()
  .max(200)
  .refine((token) => token === '' || token.length >= CONNECTION_TOKEN_MIN, messages.shortToken);

/** POST /whatsapp and PUT /whatsapp/{id} (SPEC 3 "Connection", 5 "Connection name", 9 defaults). */
export const connectionInputSchema = z.object({
  name: z
    .string({ error: nameMessages.required })
    .trim()
    .min(1, nameMessages.required)
    .min(2, nameMessages.tooShort)
    .max(50, nameMessages.tooLong),
  isDefault: z.boolean().optional().default(false),
  greetingMessage: optionalText,
  complationMessage: optionalText,
  outOfHoursMessage: optionalText,
  ratingMessage: optionalText,
  token: connectionToken.optional().default(''),
  provider: z.enum(['beta', 'stable']).optional().default('beta'),
  queueIds: z.array(z.coerce.number().int().positive()).max(100).optional().default([]),
  promptId: optionalId,
  integrationId: optionalId,
  transferQueueId: optionalId,
  timeToTransfer: minutes.nullable().optional().default(null),
  expiresTicket: minutes.optional().default(0),
  expiresInactiveMessage: optionalText,
  timeUseBotQueues: minutes.optional().default(0),
  maxUseBotQueues: z.coerce.number().int().min(0).max(100).optional().default(3),
});
export type ConnectionInput = z.infer<typeof connectionInputSchema>;

/** PUT /whatsapp/{id}: the same fields, each optional; an absent field keeps its stored value (no defaults). */
const connectionFields = connectionInputSchema.shape;
export const connectionUpdateSchema = z.object({
  name: connectionFields.name.optional(),
  isDefault: connectionFields.isDefault.unwrap(),
  greetingMessage: connectionFields.greetingMessage.unwrap(),
  complationMessage: connectionFields.complationMessage.unwrap(),
  outOfHoursMessage: connectionFields.outOfHoursMessage.unwrap(),
  ratingMessage: connectionFields.ratingMessage.unwrap(),
  token: connectionFields.token.unwrap(),
  provider: connectionFields.provider.unwrap(),
  queueIds: connectionFields.queueIds.unwrap(),
  promptId: connectionFields.promptId.unwrap(),
  integrationId: connectionFields.integrationId.unwrap(),
  transferQueueId: connectionFields.transferQueueId.unwrap(),
  timeToTransfer: connectionFields.timeToTransfer.unwrap(),
  expiresTicket: connectionFields.expiresTicket.unwrap(),
  expiresInactiveMessage: connectionFields.expiresInactiveMessage.unwrap(),
  timeUseBotQueues: connectionFields.timeUseBotQueues.unwrap(),
  maxUseBotQueues: connectionFields.maxUseBotQueues.unwrap(),
});
export type ConnectionUpdateInput = z.infer<typeof connectionUpdateSchema>;

export interface ConnectionQueue {
  id: number;
  name: string;
  color: string;
}

export interface Connection extends Omit<ConnectionInput, 'queueIds'> {
  id: number;
  companyId: number;
  status: ConnectionStatus;
  /** QR code payload to render while status is qrcode; '' otherwise. */
  qrcode: string;
  retries: number;
  /** Phone number the session is logged in as, once connected. */
  number: string;
  queueIds: number[];
  queues: ConnectionQueue[];
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-whatsappSession` payload (SPEC 7 "Realtime"). */
export interface WhatsappSessionEvent {
  action: 'update';
  session: Pick<Connection, 'id' | 'status' | 'qrcode' | 'retries' | 'updatedAt' | 'number'>;
}
