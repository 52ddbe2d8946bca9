/**
 * Contact lists and their items (SPEC 3 "Contact list", "Contact list item", 5, 7 "Campaigns, lists,
 * files"): what the API takes and answers, shared by the functions and the web app. A list is the
 * audience of a campaign; its items are not the inbox's contacts (a number may be in several lists).
 */
import * as z from 'zod';
import { messages } from './common.ts';
import { contactNameSchema, contactNumberSchema, optionalEmailSchema } from './contact-requests.ts';

export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 40;

/** SPEC 5 "Contact list: name 2-50 required" (the user form's messages). */
export const contactListInputSchema = z.object({ name: contactNameSchema }).strip();
export type ContactListInput = z.output<typeof contactListInputSchema>;

export const listContactListsQuerySchema = z.object({
  searchParam: z.string().trim().max(100).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});
export type ListContactListsQuery = z.output<typeof listContactListsQuerySchema>;

export interface ContactList {
  id: number;
  companyId: number;
  name: string;
  /** Items in the list, kept with every item write (never counted on read). */
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ContactListsPage {
  records: ContactList[];
  hasMore: boolean;
}

const positiveId = z.coerce.number({ error: messages.required }).int(messages.required).positive(messages.required);

/** SPEC 5 "Contact list item: name required, 2-50; number 8-50; email valid". The body's companyId is ignored: the token names the tenant. */
export const createContactListItemSchema = z
  .object({
    name: contactNameSchema,
    number: contactNumberSchema,
    email: optionalEmailSchema.optional().default(''),
    contactListId: positiveId,
  })
  .strip();
export type CreateContactListItemInput = z.output<typeof createContactListItemSchema>;

/** An item stays in its list; `isWhatsappValid` is the server's to set (checked against WhatsApp). */
export const updateContactListItemSchema = z
  .object({
    name: contactNameSchema.optional(),
    number: contactNumberSchema.optional(),
    email: optionalEmailSchema.optional(),
  })
  .strip();
export type UpdateContactListItemInput = z.output<typeof updateContactListItemSchema>;

export const listContactListItemsQuerySchema = z.object({
  /** The list whose contacts to page through: required, so a page reads one list's partition only. */
  contactListId: positiveId,
  /** Part of the name, the number or the email (case and accents ignored). */
  searchParam: z.string().trim().max(100).optional().default(''),
  /** 1-based; deep pages walk the pages before them: prefer `cursor`. */
  pageNumber: z.coerce.number().int().min(1).max(100).optional().default(1),
  /** The `nextCursor` of the previous page; wins over pageNumber. */
  cursor: z.string().max(4000).optional(),
});
export type ListContactListItemsQuery = z.output<typeof listContactListItemsQuerySchema>;

export interface ContactListItem {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  /**
   * Whether the number is on WhatsApp: null until checked, then true or false. Checked right after
   * it is added or changed through a connected session of the company, or, with none connected, when
   * one connects (domain/contact-lists/number-checks.ts); the list's channel then says `reload`.
   * Only valid numbers are shipped (BEHAVIOUR "Campaigns").
   */
  isWhatsappValid: boolean | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContactListItemsPage {
  contacts: ContactListItem[];
  hasMore: boolean;
  nextCursor?: string;
}

/** POST /contact-lists/{id}/upload: rows added, numbers already in the list, rows refused (line and field). */
export interface ContactListUploadResult {
  imported: number;
  duplicated: number;
  invalid: { row: number; field: string; message: string }[];
}
