/**
 * Media object keys in the private media bucket. Every key starts with its tenant (`<companyId>/`),
 * inbound (the session-host's `<companyId>/whatsapp/...`) and ours (`<companyId>/tickets/...`), so
 * the media route refuses another tenant's key by its prefix alone. Clients never see bucket URLs:
 * a message's `mediaUrl` is the API's `/public/<key>` route, which checks the tenant and redirects
 * to a short-lived presigned GET.
 *
 * The prefix says only whose the object is; what the key names after it says which record it belongs
 * to (mediaOwner), so the route and the sends can check that record too (access.ts):
 *   <cid>/tickets/<ticketId>/<upload>/<name>           our sends and direct uploads, per ticket
 *   <cid>/whatsapp/<connectionId>/<waMessageId>.<ext>  inbound (session-host/src/media.ts)
 *   <cid>/quick-messages/<id>/<upload>/<name>          a quick message's file (attachments.ts)
 *   <cid>/schedules/<id>/<upload>/<name>               a schedule's file (attachments.ts)
 *   <cid>/files/<listId>/<upload>/<name>               a file list's files (domain/file-lists)
 *   <cid>/campaigns/<id>/<upload>/<name>               a campaign's attachment (domain/campaigns/media.ts)
 * One area belongs to no tenant: announcements are the platform's, read by every company's users,
 * so their images live outside every tenant prefix (a tenant key starts with digits, this never):
 *   announcements/<id>/<upload>/<name>                 an announcement's image (platformMediaOwner)
 */
import { randomUUID } from 'node:crypto';

export const MEDIA_ROUTE_PREFIX = '/public/';
const MAX_KEY_LENGTH = 1024;
const MAX_NAME_LENGTH = 120;

/**
 * True when `key` is a plain object key of `companyId`: its prefix, no empty, `.` or `..` segment,
 * no backslash or control character. A key of another tenant is simply not ours.
 */
export function isTenantKey(companyId: number, key: string): boolean {
  return isKeyUnder(`${companyId}/`, key);
}

function isKeyUnder(prefix: string, key: string): boolean {
  if (!key.startsWith(prefix) || key.length > MAX_KEY_LENGTH) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export type MediaOwner =
  | { kind: 'ticket'; ticketId: number }
  | { kind: 'inbound'; connectionId: number; waMessageId: string }
  | { kind: 'quick-message'; id: number }
  | { kind: 'schedule'; id: number }
  | { kind: 'file-list'; id: number }
  | { kind: 'campaign'; id: number };

const UPLOAD_FOLDER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECORD_ID = /^[1-9]\d{0,14}$/;
const INBOUND_NAME = /^([A-Za-z0-9_-]+)\.[A-Za-z0-9]{1,8}$/;

/** The record a tenant key belongs to, read from its shape; undefined for any other key. */
export function mediaOwner(companyId: number, key: string): MediaOwner | undefined {
  if (!isTenantKey(companyId, key)) return undefined;
  const [, area, id = '', ...rest] = key.split('/');
  if (!RECORD_ID.test(id)) return undefined;
  if (area === 'whatsapp') {
    const name = rest.length === 1 ? INBOUND_NAME.exec(rest[0] as string) : null;
    return name ? { kind: 'inbound', connectionId: Number(id), waMessageId: name[1] as string } : undefined;
  }
  // Ours: one folder per upload, then the file's name.
  if (rest.length !== 2 || !UPLOAD_FOLDER.test(rest[0] as string)) return undefined;
  if (area === 'tickets') return { kind: 'ticket', ticketId: Number(id) };
  if (area === 'quick-messages') return { kind: 'quick-message', id: Number(id) };
  if (area === 'schedules') return { kind: 'schedule', id: Number(id) };
  if (area === 'files') return { kind: 'file-list', id: Number(id) };
  if (area === 'campaigns') return { kind: 'campaign', id: Number(id) };
  return undefined;
}

export const ANNOUNCEMENTS_MEDIA_PREFIX = 'announcements';

/** The announcement whose image `key` is, read from its shape; undefined for any other key. */
export function platformMediaOwner(key: string): { kind: 'announcement'; id: number } | undefined {
  if (!isKeyUnder(`${ANNOUNCEMENTS_MEDIA_PREFIX}/`, key)) return undefined;
  const [, id = '', folder = '', ...rest] = key.split('/');
  if (!RECORD_ID.test(id) || rest.length !== 1 || !UPLOAD_FOLDER.test(folder)) return undefined;
  return { kind: 'announcement', id: Number(id) };
}

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): in a file name they only serve to
 * disguise one, "\u202Egnp.exe" reads "exe.png" on screen while it is an .exe.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The one sanitiser every file name passes where it enters (uploads, a contact's documents): NFC,
 * without control or bidirectional characters, so the name shown is the name the file has.
 */
export function cleanFileName(name: string | undefined): string {
  return (
    (name ?? '')
      .normalize('NFC')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(BIDI_CONTROLS, '')
  );
}

/** File names as WhatsApp and S3 see them: cleaned, spaces become underscores, separators go. */
export function safeFileName(name: string | undefined): string {
  const cleaned = cleanFileName(name).replace(/[/\\]/g, '').replace(/\s+/g, '_').replace(/^\.+/, '');
  const trimmed = cleaned.length > MAX_NAME_LENGTH ? shorten(cleaned) : cleaned;
  return trimmed || 'file';
}

/** Keeps the extension when a long name is cut. */
function shorten(name: string): string {
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
  return `${name.slice(0, MAX_NAME_LENGTH - ext.length)}${ext}`;
}

/** Where an attendant's (or the external API's) upload goes: unique per upload, named for the download. */
export function outboundMediaKey(companyId: number, ticketId: number, fileName: string): string {
  return `${companyId}/tickets/${ticketId}/${randomUUID()}/${safeFileName(fileName)}`;
}

/** The API route that serves a key (relative to the API base URL, as the web's client resolves it). */
export function mediaRoute(key: string): string {
  return `${MEDIA_ROUTE_PREFIX}${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** A key given back to us as a key or as its media route (`/public/<key>`, absolute or relative). */
export function keyFromMediaUrl(value: string): string {
  let path = value.trim();
  try {
    if (/^https?:\/\//i.test(path)) path = new URL(path).pathname;
  } catch {
    return '';
  }
  const at = path.indexOf(MEDIA_ROUTE_PREFIX);
  if (at === -1) return path;
  try {
    return path
      .slice(at + MEDIA_ROUTE_PREFIX.length)
      .split('/')
      .map(decodeURIComponent)
      .join('/');
  } catch {
    return '';
  }
}

/** The bucket key a stored message's media names, or '' (none, or not this company's). */
export function messageMediaKey(companyId: number, message: { mediaPath: string | null; mediaUrl: string | null }): string {
  const key = message.mediaPath || (message.mediaUrl ? keyFromMediaUrl(message.mediaUrl) : '');
  return isTenantKey(companyId, key) ? key : '';
}

/**
 * True when the object belongs to the conversation alone (what the contact sent, or what we sent
 * into a ticket), so removing the conversation's messages removes it. A quick message's, a
 * schedule's, a campaign's or a file list's file is named by every message sent with it and by its
 * own record: it is the company's, not the conversation's, and stays.
 */
export function isConversationMedia(companyId: number, key: string): boolean {
  const kind = mediaOwner(companyId, key)?.kind;
  return kind === 'ticket' || kind === 'inbound';
}
