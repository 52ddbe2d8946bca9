/**
 * POST /contacts/import: contacts from an .xlsx file or JSON rows (domain/contacts/import), or, with
 * neither, from the default connection's phone (domain/contacts/phone-import-request): 202 at once,
 * the contacts arrive through `company-{id}-contact` events as the session-host sends them.
 */
import '#adapters/wiring';
import { importContacts, rowsFromFiles, rowsFromJson } from '#domain/contacts/import';
import { requestPhoneImport } from '#domain/contacts/phone-import-request';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { HttpResult } from '#http/result';

/** Only a request with no body at all: any body is a file or rows, and a malformed one (even `{}`) stays a 400. */
const asksForPhone = (rawBody: Buffer | undefined): boolean => !rawBody?.length;

export const handler = httpHandler('contacts-import', {
  'POST /contacts/import': async (ctx) => {
    const identity = requireIdentity(ctx);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return importContacts(identity.companyId, await rowsFromFiles(form.files));
    if (asksForPhone(ctx.rawBody)) return new HttpResult(202, await requestPhoneImport(identity.companyId));
    return importContacts(identity.companyId, rowsFromJson(ctx.body));
  },
});
