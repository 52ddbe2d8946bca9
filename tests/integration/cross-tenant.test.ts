/**
 * A user of company A can never read, list, change or delete anything of company B, over every route
 * of the route table. Each route must have a fixture here: a new route without one fails the test, so
 * the guarantee grows with the API.
 */
import { type HttpRoute, httpRoutes, routeKey } from '@conversa/functions/routes';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';

let call: Call;
let a: Tenant;
let b: Tenant;
/** B's connection, queue and queue option: ids per company, so B makes several and keeps ids A never reaches. */
const bOwn = {
  connectionId: 0,
  queueId: 0,
  optionId: 0,
  contactId: 0,
  contactNumber: '',
  exportJobId: '',
  ticketId: 0,
  ticketUuid: '',
  messageId: '',
  mediaKey: '',
  tagId: 0,
  noteId: 0,
  quickMessageId: 0,
  scheduleId: 0,
  contactListId: 0,
  contactListItemId: 0,
  fileListId: 0,
  campaignId: 0,
  chatId: 0,
  queueIntegrationId: 0,
  promptId: 0,
  webhookId: 0,
  webhookDeliveryId: '',
};

/**
 * How A's admin attacks B through a route:
 * - `params`: path parameters pointing at B's resources (B's ids).
 * - `body`: a valid body, so a refusal is about tenancy, not validation.
 * - `platform`: the route serves platform data (plans, helps) or is public: nothing of B to leak
 *   beyond what the marker check below catches.
 * - `own`: the route acts on the caller's own session only.
 * - `ownNamespace`: the path parameter is a name inside the caller's own tenant (a setting key), so a
 *   success changes the caller's data; the snapshot of B proves B's stays untouched.
 */
interface Fixture {
  params?: (b: Tenant) => Record<string, string>;
  query?: (b: Tenant) => Record<string, string>;
  body?: (b: Tenant) => unknown;
  platform?: boolean;
  own?: boolean;
  ownNamespace?: boolean;
}

const fixtures: Record<string, Fixture> = {
  'POST /auth/login': { platform: true, body: (t) => ({ email: t.admin.email, password: 'Wrong1234' }) },
  'POST /auth/refresh_token': { platform: true, body: () => ({ refreshToken: 'not-a-token' }) },
  'GET /auth/me': { own: true },
  'DELETE /auth/logout': { own: true },
  'POST /auth/session': { own: true, body: () => ({}) },
  // The second factor (issue 21): the caller's own enrolment; a challenge is no tenant's resource;
  // an admin's reset of B's user (ids per company: B's are not A's, see createTenant's skipUserIds).
  'GET /auth/mfa': { own: true },
  'POST /auth/mfa/setup': { own: true },
  'POST /auth/mfa/verify': { own: true, body: () => ({ code: '123456' }) },
  'DELETE /auth/mfa': { own: true, body: () => ({ code: '123456' }) },
  'POST /auth/mfa/challenge': { platform: true, body: () => ({ challenge: 'A'.repeat(43), code: '123456' }) },
  'DELETE /users/{id}/mfa': { params: (t) => ({ id: String(t.user.id) }), query: (t) => ({ companyId: String(t.companyId) }) },
  'POST /forgetpassword/{email}': { platform: true, params: () => ({ email: 'nobody@nowhere.test' }) },
  'POST /resetpasswords/{email}/{token}/{newPassword}': {
    platform: true,
    params: (t) => ({ email: t.admin.email, token: '000000', newPassword: 'Hijack123' }),
  },
  'GET /version': { platform: true },
  // The API's OpenAPI document (issue 23 §1): public, the same for every caller.
  'GET /api/openapi.json': { platform: true },
  'GET /settings': {},
  'PUT /settings/{key}': { ownNamespace: true, params: () => ({ key: 'userRating' }), body: () => ({ value: 'disabled' }) },
  // The trail is the caller's company's; asking for B's by companyId is refused (super admins only).
  'GET /audit': { query: (t) => ({ companyId: String(t.companyId) }) },
  'GET /audit/export.csv': { query: (t) => ({ companyId: String(t.companyId) }) },
  'GET /plans/list': { platform: true },
  'GET /plans/all': { platform: true },
  'GET /plans/{id}': { platform: true, params: () => ({ id: '1' }) },
  'POST /plans': { platform: true, body: () => ({ name: 'hijack plan' }) },
  'PUT /plans/{id}': { platform: true, params: () => ({ id: '1' }), body: () => ({ name: 'hijacked' }) },
  'DELETE /plans/{id}': { platform: true, params: () => ({ id: '1' }) },
  'POST /companies/cadastro': {
    platform: true,
    body: (t) => ({
      name: 'Hijacker',
      ownerName: 'Hijacker Owner',
      email: t.admin.email,
      phone: '11999999999',
      password: 'Hijack123',
      planId: 1,
    }),
  },
  'GET /companies/listPlan/{companyId}': { params: (t) => ({ companyId: String(t.companyId) }) },
  'PUT /companies/{id}/schedules': {
    params: (t) => ({ id: String(t.companyId) }),
    body: () => ({
      schedules: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({
        weekday: d,
        weekdayEn: d,
        startTime: '00:00',
        endTime: '01:00',
      })),
    }),
  },
  'GET /companies/list': {},
  'GET /companies': {},
  'GET /companies/{id}': { params: (t) => ({ id: String(t.companyId) }) },
  'POST /companies': { body: (t) => ({ name: `${t.companyName} copy`, email: 'x@x.test', planId: 1 }) },
  'PUT /companies/{id}': {
    params: (t) => ({ id: String(t.companyId) }),
    body: () => ({ name: 'Hijacked', email: 'x@x.test', planId: 1, status: false }),
  },
  'DELETE /companies/{id}': { params: (t) => ({ id: String(t.companyId) }) },
  // The caller's own company's export (issue 21 §5); B's job by its id.
  'POST /companies/export': {},
  'GET /companies/export/{jobId}': { params: () => ({ jobId: bOwn.exportJobId }) },
  'GET /users/list': {},
  'GET /users': {},
  'GET /users/{id}': { params: (t) => ({ id: String(t.user.id) }) },
  'POST /users': { body: () => ({ name: 'Intruder', email: `intruder-${Date.now()}@a.test`, password: 'Intrude123', profile: 'admin' }) },
  'PUT /users/{id}': { params: (t) => ({ id: String(t.user.id) }), body: () => ({ name: 'Hijacked', profile: 'admin' }) },
  'DELETE /users/{id}': { params: (t) => ({ id: String(t.user.id) }) },
  'GET /whatsapp': {},
  'GET /whatsapp/{id}': { params: () => ({ id: String(bOwn.connectionId) }) },
  'POST /whatsapp': { body: () => ({ name: 'Intruder connection' }) },
  'PUT /whatsapp/{id}': { params: () => ({ id: String(bOwn.connectionId) }), body: () => ({ name: 'Hijacked', isDefault: true }) },
  'DELETE /whatsapp/{id}': { params: () => ({ id: String(bOwn.connectionId) }) },
  'POST /whatsappsession/{id}': { params: () => ({ id: String(bOwn.connectionId) }) },
  'PUT /whatsappsession/{id}': { params: () => ({ id: String(bOwn.connectionId) }) },
  'DELETE /whatsappsession/{id}': { params: () => ({ id: String(bOwn.connectionId) }) },
  'GET /queue': {},
  'GET /queue/{id}': { params: () => ({ id: String(bOwn.queueId) }) },
  'POST /queue': { body: () => ({ name: 'Intruder queue', color: '#0a0b0c' }) },
  'PUT /queue/{id}': { params: () => ({ id: String(bOwn.queueId) }), body: () => ({ name: 'Hijacked', color: '#0d0e0f' }) },
  'DELETE /queue/{id}': { params: () => ({ id: String(bOwn.queueId) }) },
  'GET /queue-options': {},
  'POST /queue-options': { body: () => ({ queueId: bOwn.queueId, parentId: bOwn.optionId, title: 'Intruder' }) },
  'PUT /queue-options/{id}': { params: () => ({ id: String(bOwn.optionId) }), body: () => ({ title: 'Hijacked' }) },
  'DELETE /queue-options/{id}': { params: () => ({ id: String(bOwn.optionId) }) },
  'GET /tickets': {},
  'GET /tickets/u/{uuid}': { params: () => ({ uuid: bOwn.ticketUuid }) },
  'GET /tickets/{id}': { params: () => ({ id: String(bOwn.ticketId) }) },
  'POST /tickets': { body: () => ({ contactId: bOwn.contactId, queueId: bOwn.queueId, whatsappId: bOwn.connectionId }) },
  'PUT /tickets/{id}': { params: () => ({ id: String(bOwn.ticketId) }), body: () => ({ status: 'closed' }) },
  'DELETE /tickets/{id}': { params: () => ({ id: String(bOwn.ticketId) }) },
  // One action on many tickets: B's ticket id answers its own not-found, and B's ticket stays as it was.
  'POST /tickets/bulk': { body: () => ({ ids: [bOwn.ticketId], action: 'resolve' }) },
  'GET /ticket/kanban': {},
  'GET /messages/{id}': { params: () => ({ id: String(bOwn.ticketId) }) },
  'POST /messages/{id}': { params: () => ({ id: String(bOwn.ticketId) }), body: () => ({ body: 'intrusion' }) },
  'POST /messages/{id}/uploads': {
    params: () => ({ id: String(bOwn.ticketId) }),
    body: () => ({ fileName: 'intrusion.pdf', contentType: 'application/pdf', size: 1024 }),
  },
  'DELETE /messages/{id}': { params: () => ({ id: bOwn.messageId }) },
  // A retry of B's message: refused before anything is sent, and B's message stays as it was.
  'POST /messages/{id}/retry': { params: () => ({ id: bOwn.messageId }) },
  // The caller's own mentions (issue 22 §6): B's ticket id marks nothing of B's.
  'GET /mentions': { ownNamespace: true },
  'POST /mentions/read': { ownNamespace: true, body: () => ({ ticketId: bOwn.ticketId }) },
  'GET /public/{path+}': { params: () => ({ path: bOwn.mediaKey }) },
  // Its own credential (a connection token): a user's session token is refused, nothing reaches B.
  'POST /api/messages/send': { body: () => ({ number: '5511977000001', body: 'intrusion' }) },
  // Contact ids count per tenant: B has three, A at most the two its own POSTs make here.
  'GET /contacts': {},
  'GET /contacts/list': {},
  'GET /contacts/export': {},
  // A JSON body: refused before any read, so nothing of B is in reach.
  'POST /contacts/import': { body: () => ({}) },
  'GET /contacts/{id}': { params: () => ({ id: String(bOwn.contactId) }) },
  'POST /contacts': { body: (t) => ({ name: 'Intruder contact', number: `5511977${String(t.companyId).padStart(3, '0')}1` }) },
  'PUT /contacts/{id}': { params: () => ({ id: String(bOwn.contactId) }), body: () => ({ name: 'Hijacked' }) },
  'DELETE /contacts/{id}': { params: () => ({ id: String(bOwn.contactId) }) },
  // A contact's data on request (issue 21): B's contact, with its real number typed to confirm.
  'GET /contacts/{id}/export': { params: () => ({ id: String(bOwn.contactId) }) },
  'POST /contacts/{id}/erase': { params: () => ({ id: String(bOwn.contactId) }), body: () => ({ confirmNumber: bOwn.contactNumber }) },
  // Tag ids count per tenant: B has three, A at most the two its own POSTs make here.
  'GET /tags': {},
  'GET /tags/list': {},
  'GET /tags/kanban': {},
  'GET /tags/{id}': { params: () => ({ id: String(bOwn.tagId) }) },
  'POST /tags': { body: () => ({ name: 'Intruder tag' }) },
  'PUT /tags/{id}': { params: () => ({ id: String(bOwn.tagId) }), body: () => ({ name: 'Hijacked' }) },
  'DELETE /tags/{id}': { params: () => ({ id: String(bOwn.tagId) }) },
  'POST /tags/sync': { body: () => ({ ticketId: bOwn.ticketId, tags: [] }) },
  'PUT /ticket-tags/{ticketId}/{tagId}': { params: () => ({ ticketId: String(bOwn.ticketId), tagId: String(bOwn.tagId) }) },
  'DELETE /ticket-tags/{ticketId}': { params: () => ({ ticketId: String(bOwn.ticketId) }) },
  'POST /ticket-tags/{ticketId}/move': { params: () => ({ ticketId: String(bOwn.ticketId) }), body: () => ({ from: 0, to: bOwn.tagId }) },
  // The dashboard: the tenant is the token's; B's companyId in the query is ignored (B's names never show).
  'GET /dashboard': { query: (t) => ({ days: '90', companyId: String(t.companyId) }) },
  'GET /dashboard/ticketsUsers': { query: (t) => ({ companyId: String(t.companyId) }) },
  'GET /dashboard/ticketsDay': { query: (t) => ({ companyId: String(t.companyId) }) },
  // Reports (issue 22 §4): the caller's company always; B's queue ids name nothing of B's.
  'GET /reports/summary': { ownNamespace: true, query: () => ({ queueIds: String(bOwn.queueId) }) },
  'GET /reports/export.csv': { ownNamespace: true, query: () => ({ queueIds: String(bOwn.queueId) }) },
  // The first day's checklist is the token's company's: a dismissal changes A's own item only.
  'GET /onboarding': {},
  'PUT /onboarding': { body: () => ({ dismissed: true }) },
  'POST /ticket-notes': { body: () => ({ note: 'intrusion', ticketId: bOwn.ticketId }) },
  'GET /ticket-notes/list': {},
  'DELETE /ticket-notes/{id}': { params: () => ({ id: String(bOwn.noteId) }) },
  // Quick message ids count per tenant: B has three, A at most the two its own POSTs make here.
  'GET /quick-messages': {},
  'GET /quick-messages/list': {},
  'GET /quick-messages/{id}': { params: () => ({ id: String(bOwn.quickMessageId) }) },
  'POST /quick-messages': { body: () => ({ shortcode: 'intruder', message: 'intrusion' }) },
  'PUT /quick-messages/{id}': { params: () => ({ id: String(bOwn.quickMessageId) }), body: () => ({ message: 'Hijacked' }) },
  'DELETE /quick-messages/{id}': { params: () => ({ id: String(bOwn.quickMessageId) }) },
  'POST /quick-messages/{id}/media-upload': { params: () => ({ id: String(bOwn.quickMessageId) }) },
  'DELETE /quick-messages/{id}/media-upload': { params: () => ({ id: String(bOwn.quickMessageId) }) },
  'POST /quick-messages/{id}/uploads': {
    params: () => ({ id: String(bOwn.quickMessageId) }),
    body: () => ({ fileName: 'intrusion.pdf', contentType: 'application/pdf', size: 1024 }),
  },
  'GET /schedules': {},
  'GET /schedules/{id}': { params: () => ({ id: String(bOwn.scheduleId) }) },
  // B's contact (and ticket) named in A's schedule: refused, nothing of B scheduled.
  'POST /schedules': {
    body: () => ({ body: 'intrusion message', contactId: bOwn.contactId, ticketId: bOwn.ticketId, sendAt: '2099-01-01T12:00:00.000Z' }),
  },
  'PUT /schedules/{id}': { params: () => ({ id: String(bOwn.scheduleId) }), body: () => ({ body: 'Hijacked schedule' }) },
  'DELETE /schedules/{id}': { params: () => ({ id: String(bOwn.scheduleId) }) },
  'POST /schedules/{id}/media-upload': { params: () => ({ id: String(bOwn.scheduleId) }) },
  'DELETE /schedules/{id}/media-upload': { params: () => ({ id: String(bOwn.scheduleId) }) },
  'POST /schedules/{id}/uploads': {
    params: () => ({ id: String(bOwn.scheduleId) }),
    body: () => ({ fileName: 'intrusion.pdf', contentType: 'application/pdf', size: 1024 }),
  },
  'GET /campaigns': {},
  'GET /campaigns/{id}': { params: () => ({ id: String(bOwn.campaignId) }) },
  'GET /campaigns/{id}/recipients': { params: () => ({ id: String(bOwn.campaignId) }) },
  'POST /campaigns': { body: () => ({ name: 'Hijack campaign', contactListId: bOwn.contactListId }) },
  'PUT /campaigns/{id}': { params: () => ({ id: String(bOwn.campaignId) }), body: () => ({ name: 'Hijacked campaign' }) },
  'DELETE /campaigns/{id}': { params: () => ({ id: String(bOwn.campaignId) }) },
  // B's campaign is never stopped or started by A (each 404; B's snapshot keeps its status).
  'POST /campaigns/{id}/cancel': { params: () => ({ id: String(bOwn.campaignId) }) },
  'POST /campaigns/{id}/restart': { params: () => ({ id: String(bOwn.campaignId) }) },
  'POST /campaigns/{id}/media-upload': {
    params: () => ({ id: String(bOwn.campaignId) }),
    body: (t) => ({ key: `${t.companyId}/campaigns/${bOwn.campaignId}/00000000-0000-4000-8000-000000000000/x.pdf` }),
  },
  'DELETE /campaigns/{id}/media-upload': { params: () => ({ id: String(bOwn.campaignId) }) },
  'POST /campaigns/{id}/uploads': {
    params: () => ({ id: String(bOwn.campaignId) }),
    body: () => ({ fileName: 'a.pdf', contentType: 'application/pdf', size: 3 }),
  },
  'GET /campaign-settings': {},
  'POST /campaign-settings': { ownNamespace: true, body: () => ({ settings: { messageInterval: 5 } }) },
  'GET /contact-lists': {},
  'GET /contact-lists/list': {},
  'GET /contact-lists/{id}': { params: () => ({ id: String(bOwn.contactListId) }) },
  'POST /contact-lists': { body: () => ({ name: 'Hijack list' }) },
  'PUT /contact-lists/{id}': { params: () => ({ id: String(bOwn.contactListId) }), body: () => ({ name: 'Hijacked list' }) },
  'DELETE /contact-lists/{id}': { params: () => ({ id: String(bOwn.contactListId) }) },
  'POST /contact-lists/{id}/check-numbers': { params: () => ({ id: String(bOwn.contactListId) }) },
  'POST /contact-lists/{id}/upload': {
    params: () => ({ id: String(bOwn.contactListId) }),
    body: () => ({ contacts: [{ name: 'Intruder', number: '5511999990000' }] }),
  },
  'GET /contact-list-items': { query: () => ({ contactListId: String(bOwn.contactListId) }) },
  'GET /contact-list-items/{id}': { params: () => ({ id: String(bOwn.contactListItemId) }) },
  'POST /contact-list-items': { body: () => ({ name: 'Intruder', number: '5511999990001', contactListId: bOwn.contactListId }) },
  'PUT /contact-list-items/{id}': { params: () => ({ id: String(bOwn.contactListItemId) }), body: () => ({ name: 'Hijacked' }) },
  'DELETE /contact-list-items/{id}': { params: () => ({ id: String(bOwn.contactListItemId) }) },
  'GET /files': { query: (t) => ({ companyId: String(t.companyId) }) },
  'GET /files/{id}': { params: () => ({ id: String(bOwn.fileListId) }) },
  'POST /files': { body: () => ({ name: 'Hijack files', message: 'Hijack' }) },
  'PUT /files/{id}': { params: () => ({ id: String(bOwn.fileListId) }), body: () => ({ name: 'Hijacked files' }) },
  'DELETE /files/{id}': { params: () => ({ id: String(bOwn.fileListId) }) },
  // B's key named as A's upload: refused as a key of another list (and B's list is not A's anyway).
  'POST /files/uploadList/{id}': {
    params: () => ({ id: String(bOwn.fileListId) }),
    body: (t) => ({ options: [{ id: 1, key: `${t.companyId}/files/${bOwn.fileListId}/00000000-0000-4000-8000-000000000000/x.pdf` }] }),
  },
  'POST /files/uploadList/{id}/uploads': {
    params: () => ({ id: String(bOwn.fileListId) }),
    body: () => ({ fileName: 'a.pdf', contentType: 'application/pdf', size: 3 }),
  },
  'GET /helps/list': { platform: true },
  'GET /helps': { platform: true },
  'POST /helps': { platform: true, body: () => ({ title: 'hijack' }) },
  'PUT /helps/{id}': { platform: true, params: () => ({ id: '1' }), body: () => ({ title: 'hijacked' }) },
  'DELETE /helps/{id}': { platform: true, params: () => ({ id: '1' }) },
  // Announcements are the platform's (super users write, every company reads): nothing of B behind them.
  'GET /announcements': { platform: true },
  'GET /announcements/{id}': { platform: true, params: () => ({ id: '1' }) },
  'POST /announcements': { platform: true, body: () => ({ title: 'hijack', text: 'hijack' }) },
  'PUT /announcements/{id}': { platform: true, params: () => ({ id: '1' }), body: () => ({ title: 'hijacked' }) },
  'DELETE /announcements/{id}': { platform: true, params: () => ({ id: '1' }) },
  'POST /announcements/{id}/media-upload': { platform: true, params: () => ({ id: '1' }), body: (t) => ({ key: t.marker }) },
  'DELETE /announcements/{id}/media-upload': { platform: true, params: () => ({ id: '1' }) },
  'POST /announcements/{id}/uploads': {
    platform: true,
    params: () => ({ id: '1' }),
    body: () => ({ fileName: 'x.png', contentType: 'image/png', size: 10 }),
  },
  // Internal chat: B's chat (B's admin and user) is not A's to read, write to, edit or delete.
  'GET /chats': {},
  'GET /chats/{id}': { params: () => ({ id: String(bOwn.chatId) }) },
  'POST /chats': { body: (t) => ({ title: 'Hijack chat', users: [t.user.id] }) },
  'PUT /chats/{id}': { params: () => ({ id: String(bOwn.chatId) }), body: () => ({ title: 'Hijacked chat' }) },
  'DELETE /chats/{id}': { params: () => ({ id: String(bOwn.chatId) }) },
  'GET /chats/{id}/messages': { params: () => ({ id: String(bOwn.chatId) }) },
  'POST /chats/{id}/messages': { params: () => ({ id: String(bOwn.chatId) }), body: () => ({ message: 'hijack' }) },
  'POST /chats/{id}/read': { params: () => ({ id: String(bOwn.chatId) }), body: () => ({}) },
  // Queue integrations: B's (marker-named, with B's signing secret) are not A's to read, change, delete or test.
  'GET /queueIntegration': {},
  'GET /queueIntegration/{id}': { params: () => ({ id: String(bOwn.queueIntegrationId) }) },
  'POST /queueIntegration': { body: () => ({ type: 'webhook', name: 'Hijack hook', urlN8N: 'https://hijack.example/in' }) },
  'PUT /queueIntegration/{id}': {
    params: () => ({ id: String(bOwn.queueIntegrationId) }),
    body: () => ({ name: 'Hijacked', urlN8N: 'https://hijack.example/in' }),
  },
  'DELETE /queueIntegration/{id}': { params: () => ({ id: String(bOwn.queueIntegrationId) }) },
  // With B's id and no credentials of its own: only B's stored service account could answer.
  'POST /queueIntegration/testSession': { body: () => ({ projectName: 'b-project', id: bOwn.queueIntegrationId }) },
  // AI prompts: B's (marker-named, B's API key sealed) are not A's to read, change or delete.
  'GET /prompt': {},
  'GET /prompt/{id}': { params: () => ({ id: String(bOwn.promptId) }) },
  'POST /prompt': { body: () => ({ name: 'Hijack prompt', queueId: bOwn.queueId, apiKey: 'sk-hijack-00000000000000000000' }) },
  'PUT /prompt/{id}': {
    params: () => ({ id: String(bOwn.promptId) }),
    body: () => ({ name: 'Hijacked', apiKey: 'sk-hijack-00000000000000000000' }),
  },
  'DELETE /prompt/{id}': { params: () => ({ id: String(bOwn.promptId) }) },
  // Webhooks (issue 23 §2): B's endpoints (marker in the URL and description, B's secret) and their
  // delivery log are not A's to read, change, rotate, test, resend or delete; a list shows A's only.
  'GET /webhooks': {},
  'POST /webhooks': { body: () => ({ url: 'http://127.0.0.1:9/a-hook', events: ['message.received'] }) },
  'GET /webhooks/{id}': { params: () => ({ id: String(bOwn.webhookId) }) },
  'PUT /webhooks/{id}': { params: () => ({ id: String(bOwn.webhookId) }), body: () => ({ enabled: false }) },
  'DELETE /webhooks/{id}': { params: () => ({ id: String(bOwn.webhookId) }) },
  'POST /webhooks/{id}/rotate-secret': { params: () => ({ id: String(bOwn.webhookId) }) },
  'POST /webhooks/{id}/test': { params: () => ({ id: String(bOwn.webhookId) }) },
  'GET /webhooks/{id}/deliveries': { params: () => ({ id: String(bOwn.webhookId) }) },
  'POST /webhooks/{id}/deliveries/{deliveryId}/resend': {
    params: () => ({ id: String(bOwn.webhookId), deliveryId: bOwn.webhookDeliveryId }),
  },
  // Billing: the tenant comes from the token, so A reaches A's invoices only (A has none: 404 on any id);
  // the webhook is public and refuses a call without the deployment's token.
  'GET /invoices/all': {},
  'POST /subscription': {
    body: () => ({ invoiceId: 1, plan: 1, firstName: 'A', lastName: 'B', city: 'C', state: 'SP', zipcode: '01001-000', country: 'BR' }),
  },
  'POST /subscription/webhook': {
    platform: true,
    body: (t) => ({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_x', externalReference: `conversa:${t.companyId}:1` } }),
  },
};

function pathFor(route: HttpRoute, params: Record<string, string>): string {
  // `{name+}` (greedy) takes a path with its slashes: each segment is encoded, not the slashes.
  return route.path.replace(/\{(\w+)(\+?)\}/g, (_, name: string, greedy: string) =>
    greedy ? (params[name] ?? '1').split('/').map(encodeURIComponent).join('/') : encodeURIComponent(params[name] ?? '1'),
  );
}

/** B's messages as B sees them, less what the session-host settles on its own (acks, send results). */
const stableMessages = (body: unknown) =>
  (body as { messages: Record<string, unknown>[] }).messages.map(({ id, body: text, fromMe, isDeleted, mediaPath, mediaUrl }) => ({
    id,
    text,
    fromMe,
    isDeleted,
    mediaPath,
    mediaUrl,
  }));

/** What B's own admin sees of B: must be identical before and after A's attempts. */
async function snapshotOfB(): Promise<string> {
  const parts = await Promise.all([
    call('GET', '/users', { token: b.admin.token }),
    call('GET', '/settings', { token: b.admin.token }),
    call('GET', `/companies/${b.companyId}`, { token: b.admin.token }),
    call('GET', `/users/${b.user.id}`, { token: b.admin.token }),
    call('GET', '/whatsapp', { token: b.admin.token }),
    call('GET', '/queue', { token: b.admin.token }),
    call('GET', '/queue-options', { token: b.admin.token, query: { queueId: String(bOwn.queueId), parentId: '-1' } }),
    call('GET', '/tickets', { token: b.admin.token, query: { showAll: 'true' } }),
    call('GET', `/tickets/${bOwn.ticketId}`, { token: b.admin.token }),
    call('GET', '/contacts', { token: b.admin.token }),
    call('GET', '/tags', { token: b.admin.token }),
    call('GET', '/quick-messages', { token: b.admin.token }),
    call('GET', '/schedules', { token: b.admin.token }),
    call('GET', '/contact-lists', { token: b.admin.token }),
    call('GET', '/contact-list-items', { token: b.admin.token, query: { contactListId: String(bOwn.contactListId) } }),
    call('GET', '/campaigns', { token: b.admin.token }),
    call('GET', '/files', { token: b.admin.token }),
    call('GET', '/campaign-settings', { token: b.admin.token }),
    call('GET', '/chats', { token: b.admin.token }),
    call('GET', `/chats/${bOwn.chatId}/messages`, { token: b.user.token }),
    call('GET', '/queueIntegration', { token: b.admin.token }),
    call('GET', '/prompt', { token: b.admin.token }),
    // B's endpoints as configured (their failure counters move with B's own test delivery, not with A).
    call('GET', '/webhooks', { token: b.admin.token }).then((res) => ({
      ...res,
      body: (res.body as { webhooks: { id: number; url: string; description: string; enabled: boolean; events: string[] }[] }).webhooks.map(
        ({ id, url, description, enabled, events }) => ({ id, url, description, enabled, events }),
      ),
    })),
    call('GET', '/ticket-notes/list', { token: b.admin.token, query: { ticketId: String(bOwn.ticketId) } }),
    call('GET', `/messages/${bOwn.ticketId}`, { token: b.admin.token }).then((res) => ({ ...res, body: stableMessages(res.body) })),
  ]);
  for (const p of parts) expect(p.status, p.text).toBe(200);
  // A connection's session state is the session-host's to change at any time: compare what A could touch.
  const stable = (body: unknown) =>
    Array.isArray(body)
      ? body.map((item) =>
          item && typeof item === 'object' && 'status' in item && 'qrcode' in item
            ? { ...item, status: '', qrcode: '', retries: 0, number: '', updatedAt: '' }
            : item,
        )
      : body;
  // A list item's WhatsApp verdict is B's own session answering a check B's writes started, at any
  // moment (no route lets anyone write it): its value is left out, the item's every other field is not.
  return JSON.stringify(parts.map((p) => stable(p.body))).replace(
    /"isWhatsappValid":(true|false|null)/g,
    '"isWhatsappValid":"checked by B\'s session"',
  );
}

beforeAll(async () => {
  call = client(inject('apiUrl'));
  const superToken = await superLogin(call, inject('admin'));
  const planId = await firstPlanId(call);
  a = await createTenant(call, superToken, planId, 'tenant-a');
  b = await createTenant(call, superToken, planId, 'tenant-b', 6);
  // B's own connections, queues and options, named with B's marker so a leak would show.
  for (let i = 1; i <= 3; i++) {
    const queue = await call('POST', '/queue', { token: b.admin.token, body: { name: `${b.marker} q${i}`, color: `#b0b0b${i}` } });
    expect(queue.status, queue.text).toBe(201);
    bOwn.queueId = (queue.body as { id: number }).id;
    const connection = await call('POST', '/whatsapp', { token: b.admin.token, body: { name: `${b.marker} wa${i}` } });
    expect(connection.status, connection.text).toBe(201);
    bOwn.connectionId = (connection.body as { id: number }).id;
    const option = await call('POST', '/queue-options', {
      token: b.admin.token,
      body: { queueId: bOwn.queueId, title: `${b.marker} o${i}` },
    });
    expect(option.status, option.text).toBe(201);
    bOwn.optionId = (option.body as { id: number }).id;
  }
  // B's tickets: contacts have no route yet, so B's contacts (named with B's marker) go straight into
  // the local stack's table; B's admin opens the tickets through the API. Several, so B's ticket ids
  // run past any A could have.
  Object.assign(process.env, inject('env'));
  const { createContact, newContactId } = await import('@conversa/functions/storage/contacts');
  for (let i = 1; i <= 3; i++) {
    const id = await newContactId(b.companyId);
    const at = new Date().toISOString();
    await createContact({
      id,
      companyId: b.companyId,
      name: `${b.marker} contact ${i}`,
      number: `5511977${String(b.companyId).padStart(3, '0')}${i}`,
      email: '',
      profilePicUrl: '',
      isGroup: false,
      extraInfo: [],
      whatsappId: bOwn.connectionId,
      createdAt: at,
      updatedAt: at,
    });
    const ticket = await call('POST', '/tickets', {
      token: b.admin.token,
      body: { contactId: id, queueId: bOwn.queueId, whatsappId: bOwn.connectionId, status: 'open' },
    });
    expect(ticket.status, ticket.text).toBe(201);
    bOwn.contactId = id;
    bOwn.contactNumber = `5511977${String(b.companyId).padStart(3, '0')}${i}`;
    bOwn.ticketId = (ticket.body as { id: number }).id;
    bOwn.ticketUuid = (ticket.body as { uuid: string }).uuid;
  }
  // B's messages on its last ticket: a text (the one A tries to delete) and a media file (the key A
  // tries to fetch), both carrying B's marker.
  const text = await call('POST', `/messages/${bOwn.ticketId}`, { token: b.admin.token, body: { body: `${b.marker} message` } });
  expect(text.status, text.text).toBe(200);
  bOwn.messageId = (text.body as { messages: { id: string }[] }).messages[0]?.id ?? '';
  const form = new FormData();
  form.append('body', `${b.marker} photo`);
  form.append('medias', new Blob([`${b.marker} image bytes`], { type: 'image/png' }), 'b photo.png');
  const media = await fetch(`${inject('apiUrl').replace(/\/$/, '')}/messages/${bOwn.ticketId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${b.admin.token}` },
    body: form,
  });
  const sent = (await media.json()) as { messages: { mediaUrl: string }[] };
  expect(media.status, JSON.stringify(sent)).toBe(200);
  bOwn.mediaKey = (sent.messages[0]?.mediaUrl ?? '').replace(/^\/public\//, '');
  expect(bOwn.mediaKey.startsWith(`${b.companyId}/`)).toBe(true);
  // B's tags (marker-named), the last one on B's last ticket.
  for (let i = 1; i <= 3; i++) {
    const tag = await call('POST', '/tags', { token: b.admin.token, body: { name: `${b.marker} tag ${i}`, kanban: 1 } });
    expect(tag.status, tag.text).toBe(201);
    bOwn.tagId = (tag.body as { id: number }).id;
  }
  const synced = await call('POST', '/tags/sync', { token: b.admin.token, body: { ticketId: bOwn.ticketId, tags: [bOwn.tagId] } });
  expect(synced.status, synced.text).toBe(200);
  for (let i = 1; i <= 3; i++) {
    const note = await call('POST', '/ticket-notes', {
      token: b.admin.token,
      body: { note: `${b.marker} note ${i}`, ticketId: bOwn.ticketId },
    });
    expect(note.status, note.text).toBe(201);
    bOwn.noteId = (note.body as { id: number }).id;
  }
  for (let i = 1; i <= 3; i++) {
    const quick = await call('POST', '/quick-messages', {
      token: b.admin.token,
      body: { shortcode: `${b.marker}-q${i}`, message: `${b.marker} reply ${i}`, geral: true },
    });
    expect(quick.status, quick.text).toBe(201);
    bOwn.quickMessageId = (quick.body as { id: number }).id;
  }
  // B's scheduled messages (far ahead, so the sender leaves them alone), to its contact, marker in the body.
  for (let i = 1; i <= 3; i++) {
    const schedule = await call('POST', '/schedules', {
      token: b.admin.token,
      body: { body: `${b.marker} scheduled ${i}`, contactId: bOwn.contactId, ticketId: bOwn.ticketId, sendAt: '2099-06-01T12:00:00.000Z' },
    });
    expect(schedule.status, schedule.text).toBe(201);
    bOwn.scheduleId = (schedule.body as { id: number }).id;
  }
  // B's contact lists, their contacts and campaigns (marker-named); more than A's own creates reach,
  // so B's ids name B's records only. B's campaign settings differ from the defaults.
  for (let i = 1; i <= 6; i++) {
    const list = await call('POST', '/contact-lists', { token: b.admin.token, body: { name: `${b.marker} l${i}`.slice(0, 50) } });
    expect(list.status, list.text).toBe(201);
    bOwn.contactListId = (list.body as { id: number }).id;
    const item = await call('POST', '/contact-list-items', {
      token: b.admin.token,
      body: {
        name: `${b.marker} i${i}`.slice(0, 50),
        number: `5511988${String(b.companyId).padStart(3, '0')}${i}`,
        contactListId: bOwn.contactListId,
      },
    });
    expect(item.status, item.text).toBe(201);
    bOwn.contactListItemId = (item.body as { id: number }).id;
    const campaign = await call('POST', '/campaigns', {
      token: b.admin.token,
      body: { name: `${b.marker} c${i}`.slice(0, 50), contactListId: bOwn.contactListId, message1: `${b.marker} oferta` },
    });
    expect(campaign.status, campaign.text).toBe(201);
    bOwn.campaignId = (campaign.body as { id: number }).id;
  }
  // B's file lists (marker in the name, message and option), more than A's own create reaches.
  for (let i = 1; i <= 4; i++) {
    const files = await call('POST', '/files', {
      token: b.admin.token,
      body: { name: `${b.marker} f${i}`, message: `${b.marker} arquivos`, options: [{ name: `${b.marker} o${i}` }] },
    });
    expect(files.status, files.text).toBe(201);
    bOwn.fileListId = (files.body as { id: number }).id;
  }
  const campaignSettings = await call('POST', '/campaign-settings', {
    token: b.admin.token,
    body: { settings: { messageInterval: 10, variables: [{ key: 'loja', value: b.marker }] } },
  });
  expect(campaignSettings.status, campaignSettings.text).toBe(200);
  // B's chats between its admin and user (marker in the title and a message), more than A creates.
  for (let i = 1; i <= 4; i++) {
    const chat = await call('POST', '/chats', { token: b.admin.token, body: { title: `${b.marker} chat ${i}`, users: [b.user.id] } });
    expect(chat.status, chat.text).toBe(201);
    bOwn.chatId = (chat.body as { id: number }).id;
    const sent = await call('POST', `/chats/${bOwn.chatId}/messages`, { token: b.admin.token, body: { message: `${b.marker} segredo` } });
    expect(sent.status, sent.text).toBe(201);
  }
  // B's queue integrations (marker-named), more than A creates; the last one on B's queue.
  for (let i = 1; i <= 4; i++) {
    const integration = await call('POST', '/queueIntegration', {
      token: b.admin.token,
      body: { type: 'webhook', name: `${b.marker} qi${i}`.slice(-50), urlN8N: `https://${b.marker}.example/hook` },
    });
    expect(integration.status, integration.text).toBe(201);
    bOwn.queueIntegrationId = (integration.body as { id: number }).id;
  }
  const pointed = await call('PUT', `/queue/${bOwn.queueId}`, { token: b.admin.token, body: { integrationId: bOwn.queueIntegrationId } });
  expect(pointed.status, pointed.text).toBe(200);
  // B's AI prompts (marker in the name and prompt), more than A creates; the last one on B's connection.
  for (let i = 1; i <= 4; i++) {
    const prompt = await call('POST', '/prompt', {
      token: b.admin.token,
      body: {
        name: `${b.marker} p${i}`.slice(-100),
        prompt: `${b.marker} instruções`,
        queueId: bOwn.queueId,
        apiKey: `sk-b-${i}-0123456789abcdef`,
      },
    });
    expect(prompt.status, prompt.text).toBe(201);
    bOwn.promptId = (prompt.body as { id: number }).id;
  }
  const withPrompt = await call('PUT', `/whatsapp/${bOwn.connectionId}`, { token: b.admin.token, body: { promptId: bOwn.promptId } });
  expect(withPrompt.status, withPrompt.text).toBe(200);
  // B's webhook endpoints (marker in the URL and description), more than A creates, and a delivery of the last one.
  for (let i = 1; i <= 3; i++) {
    const hook = await call('POST', '/webhooks', {
      token: b.admin.token,
      body: { url: `http://127.0.0.1:9/${b.marker}/${i}`, events: ['message.received'], description: `${b.marker} hook ${i}` },
    });
    expect(hook.status, hook.text).toBe(201);
    bOwn.webhookId = (hook.body as { id: number }).id;
  }
  const delivery = await call('POST', `/webhooks/${bOwn.webhookId}/test`, { token: b.admin.token });
  expect(delivery.status, delivery.text).toBeLessThan(300);
  bOwn.webhookDeliveryId = (delivery.body as { id: string }).id;
  // Give B a setting value that differs from A's default so a leak would show.
  const put = await call('PUT', '/settings/userRating', { token: b.admin.token, body: { value: 'enabled' } });
  expect(put.status, put.text).toBe(200);
  // B's own company export job, whose id A then asks for.
  const job = await call('POST', '/companies/export', { token: b.admin.token });
  expect(job.status, job.text).toBe(202);
  bOwn.exportJobId = (job.body as { jobId: string }).jobId;
});

describe('cross-tenant isolation over the whole route table', () => {
  it('has a fixture for every route', () => {
    const missing = httpRoutes.map(routeKey).filter((key) => !(key in fixtures));
    expect(missing).toEqual([]);
  });

  for (const actor of ['admin', 'user'] as const) {
    it(`A's ${actor} cannot read, list, change or delete B's data through any route`, async () => {
      const before = await snapshotOfB();
      const leaks: string[] = [];
      for (const route of httpRoutes) {
        const fixture = fixtures[routeKey(route)];
        if (!fixture || fixture.own) continue;
        const res = await call(route.method, pathFor(route, fixture.params?.(b) ?? {}), {
          token: a[actor].token,
          body: fixture.body?.(b),
          query: fixture.query?.(b),
        });
        expect(res.status, `${routeKey(route)} -> ${res.status} ${res.text}`).toBeLessThan(500);
        const targetsB = !fixture.platform && !fixture.ownNamespace && route.path.includes('{');
        if (targetsB && res.status < 400) leaks.push(`${routeKey(route)} answered ${res.status} for B's resource`);
        // B's marker (its company name and emails) never appears in what A receives.
        if (res.text.toLowerCase().includes(b.marker)) leaks.push(`${routeKey(route)} returned B's data`);
      }
      expect(leaks).toEqual([]);
      expect(await snapshotOfB()).toBe(before);
    });
  }

  it("A's own session routes only ever show A", async () => {
    const me = await call('GET', '/auth/me', { token: a.user.token });
    expect(me.status).toBe(200);
    expect(me.text.toLowerCase()).toContain(a.marker);
    expect(me.text.toLowerCase()).not.toContain(b.marker);
    const settings = await call('GET', '/settings', { token: a.admin.token });
    expect(settings.body).toContainEqual({ key: 'userRating', value: 'disabled' });
  });
});
