/**
 * Realtime channel (event) names, as in SPEC section 7 "Realtime". The server sends
 * `{ event: <channel>, data: <payload> }`; the client sends `{ action: <ClientAction>, data }`.
 */
export const channels = {
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  user: (companyId: number) => `company-${companyId}-user`,
  /**
   * A user's presence changed (contracts/presence.ts PresenceEvent). Not the spec's `-user` channel:
   * every client refetches its users on a user event, and presence changes at each connect.
   */
  presence: (companyId: number) => `company-${companyId}-presence`,
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  /** A ticket's service level was breached (contracts/sla.ts SlaBreachEvent): its queue's admins and supervisors. */
  slaBreach: (companyId: number) => `company-${companyId}-slaBreach`,
  /** A colleague's note mentioned the user (contracts/mentions.ts MentionEvent): that user's sockets only. */
  mention: (companyId: number) => `company-${companyId}-mention`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  chat: (companyId: number) => `company-${companyId}-chat`,
  auth: (companyId: number) => `company-${companyId}-auth`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  payment: (companyId: number) => `company-${companyId}-payment`,
  settings: (companyId: number) => `company-${companyId}-settings`,
  company: (companyId: number) => `company-${companyId}-company`,
  /** SPEC 7 "Realtime": company-scoped channel for quick messages; carries ids only (some are private to their author). */
  quickMessage: (companyId: number) => `company-${companyId}-quickmessage`,
  tag: (companyId: number) => `company-${companyId}-tag`,
  /** SPEC 7 "Realtime": company-scoped channel for scheduled messages; ids only, like quick messages. */
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  /** SPEC 7 "Realtime": AI prompts (ids only; the admins' page refetches). */
  prompt: (companyId: number) => `company-${companyId}-prompt`,
  announcement: () => 'company-announcement',
  /** SPEC 7 "Realtime": campaigns, contact lists and their items (also per list, with a reload action). */
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  contactList: (companyId: number) => `company-${companyId}-ContactList`,
  contactListItem: (companyId: number) => `company-${companyId}-ContactListItem`,
  contactListItems: (companyId: number, contactListId: number) => `company-${companyId}-ContactListItem-${contactListId}`,
  /** SPEC 7 "Realtime": file lists (the Files page and the campaign dialog's picker). */
  fileList: (companyId: number) => `company-${companyId}-file`,
  /** SPEC 7 "Realtime": queue integrations (ids only; the admins' page refetches). */
  queueIntegration: (companyId: number) => `company-${companyId}-queueIntegration`,
} as const;

/** `company-{id}-quickmessage` payload: the web refetches what it may see. */
export type QuickMessageEvent = { action: 'create' | 'update' | 'delete'; id: number };

/** `company-{id}-schedule` payload: screens refetch the schedules they show. */
export type ScheduleEvent = { action: 'create' | 'update' | 'delete'; id: number };

/**
 * `company-{id}-campaign`, `company-{id}-ContactList` and `company-{id}-ContactListItem` payloads:
 * every user of the company sees them, so the record travels; a delete names the id.
 */
export type RecordEvent<T> = { action: 'create' | 'update'; record: T } | { action: 'delete'; id: number };

/** `company-{id}-ContactListItem-{listId}`: the list changed wholesale (an upload): refetch it. */
export type ContactListReloadEvent = { action: 'reload'; contactListId: number };

/** `company-{id}-tag` payload. */
export type TagEvent = { action: 'create' | 'update' | 'delete'; id: number };

/** What the web client may send over the socket (routed on `$request.body.action`). */
export const ClientActions = [
  'joinChatBox',
  'joinCompanyMessage',
  'joinNotification',
  'joinTickets',
  'leaveChatBox',
  'leaveTickets',
  'userStatus',
  'ping',
] as const;
export type ClientAction = (typeof ClientActions)[number];

export interface ServerEvent<T = unknown> {
  event: string;
  data: T;
}

/**
 * What one WebSocket message from the server carries: one event, or several in the order they
 * happened when the publisher coalesced a socket's events of a short window (realtime/outbox.ts).
 * Clients read both shapes with `eventsOfFrame`.
 */
export type ServerFrame = ServerEvent | ServerEvent[];

const isServerEvent = (value: unknown): value is ServerEvent =>
  typeof value === 'object' && value !== null && typeof (value as { event?: unknown }).event === 'string';

/** The events of one server frame, in order; nothing for text that is not a frame (entries that are not events are skipped). */
export function eventsOfFrame(text: string): ServerEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const events = Array.isArray(parsed) ? parsed : [parsed];
  return events.filter(isServerEvent).map(({ event, data }) => ({ event, data }));
}

export interface ClientMessage {
  action: ClientAction;
  data?: unknown;
}

/** Sent to the older session when the same account logs in elsewhere (SPEC 4 "Session and sockets"). */
export interface AuthEventData {
  action: 'update';
  user: { id: number };
  /** `iat` of the newest session's ID token: a client whose token is older was logged out. */
  sessionIat: number;
  /** Token id of the newest session's ID token, to tell two sign-ins within one second apart. */
  sessionJti?: string;
  /** `origin_jti` of the newest session: a client whose token descends from another sign-in was logged out. */
  sessionOrigin?: string;
  /** Why an ended session ended, when the signed-out client should say so (its login page does, issue 25). */
  reason?: 'passwordChanged';
}

/** Client keeps the socket alive well under API Gateway's 10-minute idle limit. */
export const SOCKET_PING_INTERVAL_MS = 18_000;
export const USER_STATUS_INTERVAL_MS = 300_000;

/** Events of the socket itself (not channels): the answer to `ping`, and "reconnect with a fresh token". */
export const socketEvents = {
  pong: 'pong',
  /** The socket's token expired: the server closes it; reconnect with the current token. */
  authExpired: 'auth-expired',
} as const;
