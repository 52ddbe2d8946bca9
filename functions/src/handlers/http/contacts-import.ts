/** POST /contacts/import: contacts from an .xlsx file or JSON rows (domain/contacts/import). */
import { importContacts, rowsFromFiles, rowsFromJson } from '#domain/contacts/import';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';

export const handler = httpHandler('contacts-import', {
  'POST /contacts/import': async (ctx) => {
    const identity = requireIdentity(ctx);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    return importContacts(identity.companyId, form ? rowsFromFiles(form.files) : rowsFromJson(ctx.body));
  },
});
