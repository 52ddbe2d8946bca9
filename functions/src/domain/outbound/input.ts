/**
 * What the web (and API clients) send to the messages routes. Shared with the web through
 * `@conversa/functions/domain/outbound/input`.
 *
 * Signing: the web used to prefix `*<user name>:*\n` itself when its local sign option is on. The
 * server now does it when the request says `signMessage: true` (JSON boolean, or the multipart field
 * `signMessage=true`), with the user's name as stored; a body that already starts with that exact
 * prefix is not signed twice. Without the flag the body is sent as given.
 * Voice: `asVoice: true` (multipart field `asVoice=true`) sends audio files as a voice note.
 * Private note: `isPrivate: true` (JSON only: a note is text, so a multipart body naming it is refused).
 */
import * as z from 'zod';
import { MAX_MENTIONS } from '#contracts/mentions';
import { MAX_FILES } from '../media/limits.ts';

export const MESSAGE_BODY_MAX = 65_536;
export const MESSAGES_PAGE_SIZE = 20;
/** Page numbers walk from the newest message; past this, follow `cursor` (one Query per page). */
export const MAX_MESSAGES_PAGE_NUMBER = 100;

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Invalid id');

export const messageIdSchema = uuid;

/** `limit`: an API client (or the bench) may ask for up to this many messages a page. */
export const MAX_MESSAGES_PAGE_SIZE = 100;
/** A pageNumber walk reads every page before it: at most as many messages as the default pages allow. */
export const MAX_MESSAGES_WALK = MAX_MESSAGES_PAGE_NUMBER * MESSAGES_PAGE_SIZE;

const limitMessage = `limit must be a whole number from 1 to ${MAX_MESSAGES_PAGE_SIZE}`;

export const listMessagesQuerySchema = z
  .object({
    pageNumber: z.coerce.number().int().min(1).max(MAX_MESSAGES_PAGE_NUMBER).optional().default(1),
    /** Messages a page (default MESSAGES_PAGE_SIZE, the web's). */
    limit: z.coerce
      .number(limitMessage)
      .int(limitMessage)
      .min(1, limitMessage)
      .max(MAX_MESSAGES_PAGE_SIZE, limitMessage)
      .optional()
      .default(MESSAGES_PAGE_SIZE),
    /** The `cursor` of the previous (newer) page: the id of its oldest message. Wins over pageNumber. */
    cursor: uuid.optional(),
  })
  .refine((query) => query.cursor !== undefined || query.pageNumber * query.limit <= MAX_MESSAGES_WALK, {
    path: ['pageNumber'],
    message: `pageNumber x limit goes past the newest ${MAX_MESSAGES_WALK} messages: follow cursor instead`,
  });
export type ListMessagesQuery = z.output<typeof listMessagesQuerySchema>;

export const sendMessageJsonSchema = z.object({
  body: z.string().max(MESSAGE_BODY_MAX).optional().default(''),
  /** The web sends the whole quoted message; only its id matters. */
  quotedMsg: z.object({ id: uuid }).loose().nullish(),
  /** A media key of the caller's company already in the bucket (or its `/public/...` URL): sent as media. */
  mediaUrl: z.string().max(2048).nullish(),
  /** Several such keys (files the browser uploaded itself: POST /messages/{ticketId}/uploads), in order; the body captions the first. */
  mediaUrls: z.array(z.string().max(2048)).max(MAX_FILES).optional(),
  signMessage: z.boolean().optional(),
  asVoice: z.boolean().optional(),
  /** A private note (outbound/note.ts): stored in the thread for colleagues, never sent. Text only. */
  isPrivate: z.boolean('isPrivate must be true or false').optional(),
  /** Colleagues a private note mentions (`@name`): user ids of the company, only with isPrivate. */
  mentions: z
    .array(z.int('mentions are user ids').positive('mentions are user ids'), 'mentions are user ids')
    .max(MAX_MENTIONS, `At most ${MAX_MENTIONS} mentions`)
    .optional(),
  /** Sent by the web; ours are always fromMe and read. */
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
});

/** Multipart text fields that are flags. */
export const formFlag = (values: string[] | undefined): boolean =>
  ['true', '1', 'on'].includes((values?.at(-1) ?? '').trim().toLowerCase());
