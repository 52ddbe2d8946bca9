/**
 * A ticket's record: the item's fields as the storage modules read and write them, and the defaults a
 * new ticket starts from. Its keys, indexes and denormalisations are described in tickets.ts.
 */
import { randomUUID } from 'node:crypto';
import type { SlaTimes } from '#contracts/sla';
import type { TicketContactSummary, TicketStatus } from '#contracts/tickets';

/** Where the chatbot is with this ticket (domain/chatbot). */
export interface BotState {
  /** `menu`: the queue menu was sent; `options`: walking `queueId`'s option tree at `optionId` (null = root). */
  stage: 'menu' | 'options';
  optionId: number | null;
  /** Menus sent in the current window (BEHAVIOUR: at most maxUseBotQueues within timeUseBotQueues). */
  menuCount: number;
  menuWindowStart: string | null;
}

export interface TicketRecord {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  contactId: number;
  contact: TicketContactSummary;
  whatsappId: number;
  isGroup: boolean;
  lastMessage: string;
  /** Epoch ms of the message shown as lastMessage (history may arrive out of order). */
  lastMessageAt: number;
  /** That message was deleted: lastMessage is empty and the lists show the translated marker. Absent on older tickets. */
  lastMessageDeleted?: boolean;
  unreadMessages: number;
  chatbot: boolean;
  bot: BotState | null;
  /** When the out-of-hours message last went out (at most once per 5 minutes). */
  outOfHoursAt: string | null;
  awaitingRating: boolean;
  rating: number | null;
  ratedAt: string | null;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
  /**
   * Snoozed until this time (issue 22 §5): the list keys put it in the `snoozed` lists instead of its
   * status's (tickets/list-keys.ts), and a due item (tickets/snooze-due.ts) wakes it. Null or absent = awake.
   */
  snoozedUntil?: string | null;
  /** Who snoozed it: a snoozed ticket with no attendant is in this user's snoozed list. */
  snoozedBy?: number | null;
  /** Copy of the ticket's tags, kept by the tags feature (storage/ticket-tags.ts); absent = none. */
  tags?: { id: number; name: string; color: string }[];
  /** Dashboard tracking (dashboard-counters.ts trackingFields), set by the writes below, never by callers. */
  convAt?: string | null;
  queuedAt?: string | null;
  startedAt?: string | null;
  /** The convAt of the conversation whose first response the reports counted (messages/messages.ts, once per conversation). */
  respondedConvAt?: string;
  /** Service level of the queue it is in (tickets/sla.ts), set by the writes below and by messages/messages.ts; absent/null = none. */
  sla?: SlaTimes | null;
}

/** What whoever opens a ticket decides; `newTicketRecord` fills in the rest. */
export type NewTicketFields = Pick<
  TicketRecord,
  'id' | 'companyId' | 'status' | 'userId' | 'queueId' | 'contactId' | 'contact' | 'whatsappId' | 'isGroup' | 'createdAt'
> &
  Partial<TicketRecord>;

/**
 * A ticket as it starts: no message yet, no bot, no rating, no integration, revision 0, a fresh
 * uuid, updated when created. The one place those defaults live (the create paths, the harnesses and
 * the benches' seeds all build their tickets here); any field given wins.
 */
export function newTicketRecord(fields: NewTicketFields): TicketRecord {
  return {
    uuid: randomUUID(),
    lastMessage: '',
    lastMessageAt: 0,
    unreadMessages: 0,
    chatbot: false,
    bot: null,
    outOfHoursAt: null,
    awaitingRating: false,
    rating: null,
    ratedAt: null,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    revision: 0,
    updatedAt: fields.createdAt,
    ...fields,
  };
}

/** Fields a state change may set (not the message counters). */
export type TicketStatePatch = Partial<
  Pick<
    TicketRecord,
    | 'status'
    | 'userId'
    | 'queueId'
    | 'chatbot'
    | 'bot'
    | 'outOfHoursAt'
    | 'awaitingRating'
    | 'rating'
    | 'ratedAt'
    | 'useIntegration'
    | 'promptId'
    | 'integrationId'
    | 'lastMessage'
    | 'lastMessageAt'
    | 'lastMessageDeleted'
    | 'unreadMessages'
    | 'snoozedUntil'
    | 'snoozedBy'
  >
>;
