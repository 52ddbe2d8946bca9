/**
 * POST /contact-lists/{id}/upload: a list's contacts from an .xlsx or .csv file (multipart `file`) or
 * JSON rows `{ contacts: [...] }` (domain/contact-lists/upload). Its own Lambda: the spreadsheet
 * reader stays out of the contact lists bundle.
 */
import '#adapters/wiring';
import { rowsFromFiles, rowsFromJson, uploadToContactList } from '#domain/contact-lists/upload';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { parseId } from '#http/validate';

export const handler = httpHandler('contact-lists-import', {
  'POST /contact-lists/{id}/upload': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    return uploadToContactList(identity, id, form ? await rowsFromFiles(form.files) : rowsFromJson(ctx.body));
  },
});
