/** Contact lists and their contacts (SPEC 7 "Campaigns, lists, files"); the upload has its own Lambda (contact-lists-import). */
import '#adapters/wiring';
import {
  contactListInputSchema,
  createContactListItemSchema,
  listContactListItemsQuerySchema,
  listContactListsQuerySchema,
  updateContactListItemSchema,
} from '#contracts/contact-lists';
import {
  allContactListsFor,
  checkContactListNumbersFor,
  createContactListFor,
  deleteContactListFor,
  getContactListFor,
  listContactListsFor,
  updateContactListFor,
} from '#domain/contact-lists/contact-lists';
import { createItemFor, deleteItemFor, getItemFor, listItemsFor, updateItemFor } from '#domain/contact-lists/items';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('contact-lists', {
  'GET /contact-lists': async (ctx) =>
    listContactListsFor(requireIdentity(ctx), parseInput(listContactListsQuerySchema, ctx.query, 'query')),
  'GET /contact-lists/list': async (ctx) => allContactListsFor(requireIdentity(ctx)),
  'GET /contact-lists/{id}': async (ctx) => getContactListFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /contact-lists': async (ctx) =>
    created(await createContactListFor(requireIdentity(ctx), parseInput(contactListInputSchema, ctx.body ?? {}))),
  'PUT /contact-lists/{id}': async (ctx) =>
    updateContactListFor(requireIdentity(ctx), parseId(ctx.params), parseInput(contactListInputSchema, ctx.body ?? {})),
  'DELETE /contact-lists/{id}': async (ctx) => {
    await deleteContactListFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /contact-lists/{id}/check-numbers': async (ctx) => checkContactListNumbersFor(requireIdentity(ctx), parseId(ctx.params)),
  'GET /contact-list-items': async (ctx) =>
    listItemsFor(requireIdentity(ctx), parseInput(listContactListItemsQuerySchema, ctx.query, 'query')),
  'GET /contact-list-items/{id}': async (ctx) => getItemFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /contact-list-items': async (ctx) =>
    created(await createItemFor(requireIdentity(ctx), parseInput(createContactListItemSchema, ctx.body ?? {}))),
  'PUT /contact-list-items/{id}': async (ctx) =>
    updateItemFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateContactListItemSchema, ctx.body ?? {})),
  'DELETE /contact-list-items/{id}': async (ctx) => {
    await deleteItemFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
});
