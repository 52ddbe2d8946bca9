/** Contacts of the caller's company (SPEC 7 "Contacts, tags, users, queues"). */
import '#adapters/wiring';
import { eraseContactSchema } from '#contracts/contact-data';
import {
  createContactSchema,
  exportContactsQuerySchema,
  listAllContactsQuerySchema,
  listContactsQuerySchema,
  updateContactSchema,
} from '#contracts/contact-requests';
import { exportContactData } from '#domain/contacts/data-export';
import { eraseContact } from '#domain/contacts/erase';
import {
  createContactFor,
  deleteContactFor,
  exportContactsPage,
  getContactFor,
  listAllContactsFor,
  listContactsFor,
  updateContactFor,
} from '#domain/contacts/manage';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('contacts', {
  'GET /contacts': async (ctx) => listContactsFor(requireIdentity(ctx).companyId, parseInput(listContactsQuerySchema, ctx.query, 'query')),
  'GET /contacts/list': async (ctx) =>
    listAllContactsFor(requireIdentity(ctx).companyId, parseInput(listAllContactsQuerySchema, ctx.query, 'query').searchParam),
  'GET /contacts/export': async (ctx) =>
    exportContactsPage(requireIdentity(ctx).companyId, parseInput(exportContactsQuerySchema, ctx.query, 'query').cursor),
  'GET /contacts/{id}': async (ctx) => getContactFor(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /contacts': async (ctx) =>
    created(await createContactFor(requireIdentity(ctx).companyId, parseInput(createContactSchema, ctx.body ?? {}))),
  'PUT /contacts/{id}': async (ctx) =>
    updateContactFor(requireIdentity(ctx).companyId, parseId(ctx.params), parseInput(updateContactSchema, ctx.body ?? {})),
  'GET /contacts/{id}/export': async (ctx) => exportContactData(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /contacts/{id}/erase': async (ctx) => {
    const id = parseId(ctx.params);
    return eraseContact(requireIdentity(ctx).companyId, id, parseInput(eraseContactSchema, ctx.body ?? {}).confirmNumber);
  },
  'DELETE /contacts/{id}': async (ctx) => {
    await deleteContactFor(requireIdentity(ctx).companyId, parseId(ctx.params));
    return noContent();
  },
});
