/**
 * The cross-tenant test's fixtures (cross-tenant.test.ts): for each route of the route table, how A
 * aims it at B, and the ids of B's own resources (`bOwn`, filled by seedTenantB before the test).
 */
import type { Tenant } from './tenants.ts';

/** B's connection, queue and queue option: ids per company, so B makes several and keeps ids A never reaches. */
export const bOwn = {
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
export interface Fixture {
  params?: (b: Tenant) => Record<string, string>;
  query?: (b: Tenant) => Record<string, string>;
  body?: (b: Tenant) => unknown;
  platform?: boolean;
  own?: boolean;
  ownNamespace?: boolean;
}

export const fixtures: Record<string, Fixture> = {
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
