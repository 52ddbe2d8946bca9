/** Tags of the caller's company and the tags of its tickets (SPEC 7 "Contacts, tags, users, queues"). */
import { createTagSchema, listTagsQuerySchema, moveTicketTagSchema, syncTagsSchema, updateTagSchema } from '#contracts/tag-requests';
import { createTagFor, deleteTagFor, findTag, listAllTags, listKanbanTags, listTagsPage, updateTagFor } from '#domain/tags/tags';
import { addTicketTag, clearTicketTags, moveTicketTag, syncTicketTags } from '#domain/tags/ticket-tags';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('tags', {
  'GET /tags': async (ctx) => {
    const { searchParam, pageNumber } = parseInput(listTagsQuerySchema, ctx.query, 'query');
    return listTagsPage(requireIdentity(ctx).companyId, searchParam, pageNumber);
  },
  'GET /tags/list': async (ctx) => listAllTags(requireIdentity(ctx).companyId),
  'GET /tags/kanban': async (ctx) => listKanbanTags(requireIdentity(ctx).companyId),
  'GET /tags/{id}': async (ctx) => findTag(requireIdentity(ctx).companyId, parseId(ctx.params)),
  'POST /tags': async (ctx) => created(await createTagFor(requireIdentity(ctx), parseInput(createTagSchema, ctx.body ?? {}))),
  'PUT /tags/{id}': async (ctx) => updateTagFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateTagSchema, ctx.body ?? {})),
  'DELETE /tags/{id}': async (ctx) => {
    await deleteTagFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /tags/sync': async (ctx) => {
    const { ticketId, tags } = parseInput(syncTagsSchema, ctx.body ?? {});
    return syncTicketTags(requireIdentity(ctx), ticketId, tags);
  },
  'PUT /ticket-tags/{ticketId}/{tagId}': async (ctx) =>
    addTicketTag(requireIdentity(ctx), parseId(ctx.params, 'ticketId'), parseId(ctx.params, 'tagId')),
  'POST /ticket-tags/{ticketId}/move': async (ctx) => {
    const { from, to } = parseInput(moveTicketTagSchema, ctx.body ?? {});
    return moveTicketTag(requireIdentity(ctx), parseId(ctx.params, 'ticketId'), from, to);
  },
  'DELETE /ticket-tags/{ticketId}': async (ctx) => clearTicketTags(requireIdentity(ctx), parseId(ctx.params, 'ticketId')),
});
