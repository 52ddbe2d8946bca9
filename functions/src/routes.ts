/**
 * The one route table. The CDK stack deploys exactly these routes on the HTTP API (and the
 * WebSocket API), and the local gateway serves exactly these: local and deployed cannot drift.
 *
 * Each route names the Lambda (`fn`) that serves it; a Lambda routes inside on the API Gateway
 * `routeKey` ("METHOD /path"), so one bundle serves one feature area.
 */
import { ClientActions, type ServerEvent, socketEvents } from '#contracts/channels';
import type { PlanFlag } from '#contracts/plans';

export const httpFunctions = [
  'auth',
  'companies',
  'plans',
  'users',
  'settings',
  'helps',
  'connections',
  'queues',
  'messages',
  'media',
  'external-api',
  'tickets',
  'contacts',
  'tags',
  'ticket-notes',
  'quick-messages',
  'contacts-import',
  'schedules',
  'campaigns',
  'contact-lists',
  'contact-lists-import',
  'files',
  'announcements',
  'chats',
  'dashboard',
  'queue-integrations',
  'prompts',
  'webhooks',
] as const;
export type HttpFunctionName = (typeof httpFunctions)[number];

/**
 * Who may call a route. The tenant always comes from the verified token.
 * - public: no token.
 * - user: any signed-in user of an active company.
 * - admin: profile admin (or super).
 * - super: the platform's super users only.
 */
export type Access = 'public' | 'user' | 'admin' | 'super';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRoute {
  method: HttpMethod;
  /** API Gateway path syntax: `/users/{id}`. */
  path: string;
  fn: HttpFunctionName;
  access: Access;
  /** Plan feature flag the company must have. */
  plan?: PlanFlag;
  /** Still callable when the company is past its due date (billing, session management). */
  allowExpired?: boolean;
  /**
   * The route claims the single session (POST /auth/session after a Cognito sign-in): its token may
   * come from a sign-in that does not own the session yet. Every other route refuses such tokens.
   */
  claimsSession?: boolean;
  /** Answers a user the company requires a second factor of before it enrols (issue 21); every other route is 403. */
  mfaEnrolment?: boolean;
  /** Body size limit when larger than the default JSON limit (multipart media uploads). */
  maxBodyBytes?: number;
}

/**
 * Multipart sends: up to 10 MB per file (the product's limit), within API Gateway's 10 MB payload.
 * Deployed, a Lambda request is capped at 6 MB (base64 included), so larger files need a presigned
 * upload; the local gateway lets the full 10 MB through.
 */
export const MEDIA_REQUEST_BYTES = 10 * 1024 * 1024;

export const routeKey = (r: Pick<HttpRoute, 'method' | 'path'>): string => `${r.method} ${r.path}`;

const r = (method: HttpMethod, path: string, fn: HttpFunctionName, access: Access, extra: Partial<HttpRoute> = {}): HttpRoute => ({
  method,
  path,
  fn,
  access,
  ...extra,
});

export const httpRoutes: readonly HttpRoute[] = [
  // Auth and session (SPEC 7 "Auth and session")
  r('POST', '/auth/login', 'auth', 'public'),
  r('POST', '/auth/refresh_token', 'auth', 'public'),
  r('GET', '/auth/me', 'auth', 'user', { allowExpired: true, mfaEnrolment: true }),
  r('DELETE', '/auth/logout', 'auth', 'user', { allowExpired: true, mfaEnrolment: true }),
  /** The web app signs in with Amplify straight to Cognito, then claims the single session here. */
  r('POST', '/auth/session', 'auth', 'user', { allowExpired: true, claimsSession: true, mfaEnrolment: true }),
  // Second factor (issue 21 part 2): enrol, turn off, pass the sign-in's challenge; an admin's reset.
  r('GET', '/auth/mfa', 'auth', 'user', { allowExpired: true, mfaEnrolment: true }),
  r('POST', '/auth/mfa/setup', 'auth', 'user', { allowExpired: true, mfaEnrolment: true }),
  r('POST', '/auth/mfa/verify', 'auth', 'user', { allowExpired: true, mfaEnrolment: true }),
  r('DELETE', '/auth/mfa', 'auth', 'user', { allowExpired: true }),
  r('POST', '/auth/mfa/challenge', 'auth', 'public'),
  r('DELETE', '/users/{id}/mfa', 'auth', 'admin'),
  r('POST', '/forgetpassword/{email}', 'auth', 'public'),
  r('POST', '/resetpasswords/{email}/{token}/{newPassword}', 'auth', 'public'),
  r('GET', '/version', 'auth', 'public'),

  // Settings (key/value per company)
  r('GET', '/settings', 'settings', 'user'),
  r('PUT', '/settings/{key}', 'settings', 'admin'),
  // The audit trail (issue 21 §3), read-only: the Settings tab's data, so served by the settings
  // Lambda rather than a Lambda of its own. No route writes, edits or deletes an entry.
  r('GET', '/audit', 'settings', 'admin'),
  r('GET', '/audit/export.csv', 'settings', 'admin'),

  // Plans
  r('GET', '/plans/list', 'plans', 'public'),
  r('GET', '/plans/all', 'plans', 'super'),
  r('GET', '/plans/{id}', 'plans', 'super'),
  r('POST', '/plans', 'plans', 'super'),
  r('PUT', '/plans/{id}', 'plans', 'super'),
  r('DELETE', '/plans/{id}', 'plans', 'super'),

  // Companies
  r('POST', '/companies/cadastro', 'companies', 'public'),
  r('GET', '/companies/listPlan/{companyId}', 'companies', 'user', { allowExpired: true }),
  r('PUT', '/companies/{id}/schedules', 'companies', 'admin'),
  // A company's own data (issue 21 §5): its admin queues a zip of it and reads the job's status and link.
  r('POST', '/companies/export', 'companies', 'admin'),
  r('GET', '/companies/export/{jobId}', 'companies', 'admin'),
  r('GET', '/companies/list', 'companies', 'super'),
  r('GET', '/companies', 'companies', 'super'),
  r('GET', '/companies/{id}', 'companies', 'user', { allowExpired: true }),
  r('POST', '/companies', 'companies', 'super'),
  r('PUT', '/companies/{id}', 'companies', 'super'),
  r('DELETE', '/companies/{id}', 'companies', 'super'),

  // Users
  r('GET', '/users/list', 'users', 'user'),
  r('GET', '/users', 'users', 'admin'),
  r('GET', '/users/{id}', 'users', 'user'),
  r('POST', '/users', 'users', 'admin'),
  r('PUT', '/users/{id}', 'users', 'user'),
  r('DELETE', '/users/{id}', 'users', 'admin'),

  // Connections (SPEC 7 "Connections"); session actions reach the session-host as commands
  r('GET', '/whatsapp', 'connections', 'user'),
  r('GET', '/whatsapp/{id}', 'connections', 'user'),
  r('POST', '/whatsapp', 'connections', 'admin'),
  r('PUT', '/whatsapp/{id}', 'connections', 'admin'),
  r('DELETE', '/whatsapp/{id}', 'connections', 'admin'),
  r('POST', '/whatsappsession/{id}', 'connections', 'admin'),
  r('PUT', '/whatsappsession/{id}', 'connections', 'admin'),
  r('DELETE', '/whatsappsession/{id}', 'connections', 'admin'),

  // Queues and their chatbot option tree
  r('GET', '/queue', 'queues', 'user'),
  r('GET', '/queue/{id}', 'queues', 'user'),
  r('POST', '/queue', 'queues', 'admin'),
  r('PUT', '/queue/{id}', 'queues', 'admin'),
  r('DELETE', '/queue/{id}', 'queues', 'admin'),
  r('GET', '/queue-options', 'queues', 'user'),
  r('POST', '/queue-options', 'queues', 'admin'),
  r('PUT', '/queue-options/{id}', 'queues', 'admin'),
  r('DELETE', '/queue-options/{id}', 'queues', 'admin'),

  // Tickets (SPEC 7 "Tickets and messages"); visibility per SPEC 6 is decided inside (domain/tickets/access).
  r('GET', '/tickets', 'tickets', 'user'),
  r('GET', '/tickets/u/{uuid}', 'tickets', 'user'),
  r('GET', '/tickets/{id}', 'tickets', 'user'),
  r('POST', '/tickets', 'tickets', 'user'),
  // One action on up to 100 tickets, each under its own rules (domain/tickets/bulk).
  r('POST', '/tickets/bulk', 'tickets', 'user'),
  r('PUT', '/tickets/{id}', 'tickets', 'user'),
  r('DELETE', '/tickets/{id}', 'tickets', 'admin'),
  r('GET', '/ticket/kanban', 'tickets', 'user', { plan: 'useKanban' }),

  // Messages of a ticket (SPEC 7 "Tickets and messages"). API Gateway allows one parameter name per
  // path level, so `{id}` is the ticket id for GET/POST and the message id for DELETE.
  r('GET', '/messages/{id}', 'messages', 'user'),
  r('POST', '/messages/{id}', 'messages', 'user', { maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('POST', '/messages/{id}/uploads', 'messages', 'user'),
  r('DELETE', '/messages/{id}', 'messages', 'user'),
  // Sends a failed message of ours again (`{id}` the message id), idempotently.
  r('POST', '/messages/{id}/retry', 'messages', 'user'),
  // The caller's mentions by colleagues' notes (issue 22 §6): only their own, from the token.
  r('GET', '/mentions', 'messages', 'user'),
  r('POST', '/mentions/read', 'messages', 'user'),
  // Private media: the caller's tenant must own the key (`<companyId>/...`); answers a presigned redirect.
  r('GET', '/public/{path+}', 'media', 'user'),
  // External messages API: authenticated by a connection token, not a user session (BEHAVIOUR).
  r('POST', '/api/messages/send', 'external-api', 'public', { maxBodyBytes: MEDIA_REQUEST_BYTES }),

  // Contacts (SPEC 7 "Contacts, tags, users, queues"); delete refuses a contact with an open ticket.
  r('GET', '/contacts', 'contacts', 'user'),
  r('GET', '/contacts/list', 'contacts', 'user'),
  r('GET', '/contacts/export', 'contacts', 'user'),
  // Its own Lambda: the spreadsheet reader stays out of the contacts bundle.
  r('POST', '/contacts/import', 'contacts-import', 'user', { maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('GET', '/contacts/{id}', 'contacts', 'user'),
  r('POST', '/contacts', 'contacts', 'user'),
  r('PUT', '/contacts/{id}', 'contacts', 'user'),
  r('DELETE', '/contacts/{id}', 'contacts', 'admin'),
  // A contact's data on request (issue 21 §4, LGPD/GDPR): its whole history, or its erasure.
  // Admins only, both: the export spans every queue's tickets of the contact.
  r('GET', '/contacts/{id}/export', 'contacts', 'admin'),
  r('POST', '/contacts/{id}/erase', 'contacts', 'admin'),

  // Tags and the tags of tickets; only admins and supervisors set the kanban flag (decided inside).
  r('GET', '/tags', 'tags', 'user'),
  r('GET', '/tags/list', 'tags', 'user'),
  r('GET', '/tags/kanban', 'tags', 'user'),
  r('GET', '/tags/{id}', 'tags', 'user'),
  r('POST', '/tags', 'tags', 'user'),
  r('PUT', '/tags/{id}', 'tags', 'user'),
  r('DELETE', '/tags/{id}', 'tags', 'user'),
  r('POST', '/tags/sync', 'tags', 'user'),
  r('PUT', '/ticket-tags/{ticketId}/{tagId}', 'tags', 'user'),
  r('DELETE', '/ticket-tags/{ticketId}', 'tags', 'user'),
  // The kanban's drag between lanes: one tag off, one on, in one request.
  r('POST', '/ticket-tags/{ticketId}/move', 'tags', 'user', { plan: 'useKanban' }),

  // Notes on tickets the caller may see; delete by the author or an admin.
  r('POST', '/ticket-notes', 'ticket-notes', 'user'),
  r('GET', '/ticket-notes/list', 'ticket-notes', 'user'),
  r('DELETE', '/ticket-notes/{id}', 'ticket-notes', 'user'),

  // Quick messages: the caller's own and the geral ones; changed by the author or an admin (decided inside).
  r('GET', '/quick-messages', 'quick-messages', 'user'),
  r('GET', '/quick-messages/list', 'quick-messages', 'user'),
  r('GET', '/quick-messages/{id}', 'quick-messages', 'user'),
  r('POST', '/quick-messages', 'quick-messages', 'user'),
  r('PUT', '/quick-messages/{id}', 'quick-messages', 'user'),
  r('DELETE', '/quick-messages/{id}', 'quick-messages', 'user'),
  r('POST', '/quick-messages/{id}/media-upload', 'quick-messages', 'user', { maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('DELETE', '/quick-messages/{id}/media-upload', 'quick-messages', 'user'),
  r('POST', '/quick-messages/{id}/uploads', 'quick-messages', 'user'),

  // Scheduled messages (company-wide; the plan must have useSchedules): sent by the schedule-sends job.
  r('GET', '/schedules', 'schedules', 'user', { plan: 'useSchedules' }),
  r('GET', '/schedules/{id}', 'schedules', 'user', { plan: 'useSchedules' }),
  r('POST', '/schedules', 'schedules', 'user', { plan: 'useSchedules' }),
  r('PUT', '/schedules/{id}', 'schedules', 'user', { plan: 'useSchedules' }),
  r('DELETE', '/schedules/{id}', 'schedules', 'user', { plan: 'useSchedules' }),
  r('POST', '/schedules/{id}/media-upload', 'schedules', 'user', { plan: 'useSchedules', maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('DELETE', '/schedules/{id}/media-upload', 'schedules', 'user', { plan: 'useSchedules' }),
  r('POST', '/schedules/{id}/uploads', 'schedules', 'user', { plan: 'useSchedules' }),

  // Campaigns, contact lists and campaign settings (SPEC 7 "Campaigns, lists, files"): company-wide,
  // the plan must have useCampaigns. cancel, restart and media come with the shipping engine.
  r('GET', '/campaigns', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('GET', '/campaigns/{id}', 'campaigns', 'user', { plan: 'useCampaigns' }),
  // The report's recipients, each with its state (issue 25): whoever may see the report.
  r('GET', '/campaigns/{id}/recipients', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('POST', '/campaigns', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('PUT', '/campaigns/{id}', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('DELETE', '/campaigns/{id}', 'campaigns', 'user', { plan: 'useCampaigns' }),
  // The shipping engine's two moves (SPEC 4): any user who may see the campaigns, as the page offers them.
  r('POST', '/campaigns/{id}/cancel', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('POST', '/campaigns/{id}/restart', 'campaigns', 'user', { plan: 'useCampaigns' }),
  // The campaign's attachment, as schedules': multipart, or a presigned PUT then the key.
  r('POST', '/campaigns/{id}/media-upload', 'campaigns', 'user', { plan: 'useCampaigns', maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('DELETE', '/campaigns/{id}/media-upload', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('POST', '/campaigns/{id}/uploads', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('GET', '/campaign-settings', 'campaigns', 'user', { plan: 'useCampaigns' }),
  r('POST', '/campaign-settings', 'campaigns', 'admin', { plan: 'useCampaigns' }),
  r('GET', '/contact-lists', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('GET', '/contact-lists/list', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('GET', '/contact-lists/{id}', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('POST', '/contact-lists', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('PUT', '/contact-lists/{id}', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('DELETE', '/contact-lists/{id}', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  // The list's numbers not yet checked against WhatsApp, asked again (a check dropped with its session).
  r('POST', '/contact-lists/{id}/check-numbers', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  // Its own Lambda: the spreadsheet reader stays out of the contact lists bundle.
  r('POST', '/contact-lists/{id}/upload', 'contact-lists-import', 'user', { plan: 'useCampaigns', maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('GET', '/contact-list-items', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('GET', '/contact-list-items/{id}', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('POST', '/contact-list-items', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  r('PUT', '/contact-list-items/{id}', 'contact-lists', 'user', { plan: 'useCampaigns' }),
  // SPEC 2 "List contacts": delete for permitted roles (contacts-page:deleteContact, admins).
  r('DELETE', '/contact-list-items/{id}', 'contact-lists', 'admin', { plan: 'useCampaigns' }),
  // File lists (issue 10): every user reads them (the campaign dialog's picker), admins change them
  // (the Files page is in the admin menu). Files go multipart, or presigned PUT then JSON keys.
  r('GET', '/files', 'files', 'user', { plan: 'useCampaigns' }),
  r('GET', '/files/{id}', 'files', 'user', { plan: 'useCampaigns' }),
  r('POST', '/files', 'files', 'admin', { plan: 'useCampaigns' }),
  r('PUT', '/files/{id}', 'files', 'admin', { plan: 'useCampaigns' }),
  r('DELETE', '/files/{id}', 'files', 'admin', { plan: 'useCampaigns' }),
  r('POST', '/files/uploadList/{id}', 'files', 'admin', { plan: 'useCampaigns', maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('POST', '/files/uploadList/{id}/uploads', 'files', 'admin', { plan: 'useCampaigns' }),

  // Dashboard (SPEC 2, 7): any signed-in user; admins see the company, others their queues (decided inside).
  r('GET', '/dashboard', 'dashboard', 'user'),
  r('GET', '/dashboard/ticketsUsers', 'dashboard', 'user'),
  r('GET', '/dashboard/ticketsDay', 'dashboard', 'user'),
  // Reports (issue 22 §4), from the dashboard's counters: admins the company, others their queues (decided inside).
  r('GET', '/reports/summary', 'dashboard', 'user'),
  r('GET', '/reports/export.csv', 'dashboard', 'user'),
  // The first day's checklist (issue 25), shown above the dashboard: the company's admins only.
  r('GET', '/onboarding', 'dashboard', 'admin'),
  r('PUT', '/onboarding', 'dashboard', 'admin'),

  // Billing (SPEC 7 lists it under "Plans and companies"; BEHAVIOUR "Billing"), in the companies Lambda
  // (handlers/http/billing.ts): the company's admins see its invoices and pay them, also once it expired
  // (its only way back in); Asaas calls the webhook, verified inside by its access token header.
  r('GET', '/invoices/all', 'companies', 'admin', { allowExpired: true }),
  r('POST', '/subscription', 'companies', 'admin', { allowExpired: true }),
  r('POST', '/subscription/webhook', 'companies', 'public'),

  // Help videos (platform-wide, edited by super users)
  r('GET', '/helps/list', 'helps', 'user'),
  r('GET', '/helps', 'helps', 'user'),
  r('POST', '/helps', 'helps', 'super'),
  r('PUT', '/helps/{id}', 'helps', 'super'),
  r('DELETE', '/helps/{id}', 'helps', 'super'),
  // The API described in OpenAPI 3.1 (issue 23 §1), generated from the request schemas (declarations/openapi.ts).
  // Documentation, so beside the help videos: the auth Lambda's cold start is past bench:bundles' 500 KB already.
  r('GET', '/api/openapi.json', 'helps', 'public'),

  // Announcements (platform-wide): super users write; every user reads the active ones (decided inside).
  r('GET', '/announcements', 'announcements', 'user'),
  r('GET', '/announcements/{id}', 'announcements', 'user'),
  r('POST', '/announcements', 'announcements', 'super'),
  r('PUT', '/announcements/{id}', 'announcements', 'super'),
  r('DELETE', '/announcements/{id}', 'announcements', 'super'),
  r('POST', '/announcements/{id}/media-upload', 'announcements', 'super', { maxBodyBytes: MEDIA_REQUEST_BYTES }),
  r('DELETE', '/announcements/{id}/media-upload', 'announcements', 'super'),
  r('POST', '/announcements/{id}/uploads', 'announcements', 'super'),

  // Internal chat (SPEC 7 "/chats"): members-only conversations; the owner or an admin edits (decided inside).
  r('GET', '/chats', 'chats', 'user', { plan: 'useInternalChat' }),
  r('GET', '/chats/{id}', 'chats', 'user', { plan: 'useInternalChat' }),
  r('POST', '/chats', 'chats', 'user', { plan: 'useInternalChat' }),
  r('PUT', '/chats/{id}', 'chats', 'user', { plan: 'useInternalChat' }),
  r('DELETE', '/chats/{id}', 'chats', 'user', { plan: 'useInternalChat' }),
  r('GET', '/chats/{id}/messages', 'chats', 'user', { plan: 'useInternalChat' }),
  r('POST', '/chats/{id}/messages', 'chats', 'user', { plan: 'useInternalChat' }),
  r('POST', '/chats/{id}/read', 'chats', 'user', { plan: 'useInternalChat' }),

  // Queue integrations (SPEC 7 "Prompts and integrations"): the admins' bots; testSession tries Dialogflow credentials.
  r('GET', '/queueIntegration', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),
  r('GET', '/queueIntegration/{id}', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),
  r('POST', '/queueIntegration', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),
  r('PUT', '/queueIntegration/{id}', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),
  r('DELETE', '/queueIntegration/{id}', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),
  r('POST', '/queueIntegration/testSession', 'queue-integrations', 'admin', { plan: 'useIntegrations' }),

  // AI prompts (SPEC 7 "Prompts and integrations"): the admins' assistants; the API key is only ever shown as its hint.
  r('GET', '/prompt', 'prompts', 'admin', { plan: 'useOpenAi' }),
  r('GET', '/prompt/{id}', 'prompts', 'admin', { plan: 'useOpenAi' }),
  r('POST', '/prompt', 'prompts', 'admin', { plan: 'useOpenAi' }),
  r('PUT', '/prompt/{id}', 'prompts', 'admin', { plan: 'useOpenAi' }),
  r('DELETE', '/prompt/{id}', 'prompts', 'admin', { plan: 'useOpenAi' }),

  // Webhooks (issue 23 §2): the admins' endpoints for the external API's events, and their delivery log.
  r('GET', '/webhooks', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('POST', '/webhooks', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('GET', '/webhooks/{id}', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('PUT', '/webhooks/{id}', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('DELETE', '/webhooks/{id}', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('POST', '/webhooks/{id}/rotate-secret', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('POST', '/webhooks/{id}/test', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('GET', '/webhooks/{id}/deliveries', 'webhooks', 'admin', { plan: 'useExternalApi' }),
  r('POST', '/webhooks/{id}/deliveries/{deliveryId}/resend', 'webhooks', 'admin', { plan: 'useExternalApi' }),
];

/** WebSocket routes, all served by the `realtime` Lambda: API Gateway's three plus one per client action. */
export const wsRouteKeys = ['$connect', '$disconnect', '$default', ...ClientActions] as const;
export type WsRouteKey = (typeof wsRouteKeys)[number];

/**
 * Route keys API Gateway answers itself (a mock integration with a route response; the local gateway
 * does the same), without invoking the `realtime` Lambda. `ping` (every socket every 18 s, SPEC 9)
 * only keeps a socket under API Gateway's 10-minute idle limit: answered by a Lambda it cost one
 * invocation, one GetItem and one `@connections` post per ping, 11,100 API Gateway calls a second at
 * 100k sockets, over the account's 10,000. A socket's checks (unknown socket, expired token) run on
 * its other messages (userStatus every 5 minutes), and the publisher sends nothing to a socket whose
 * token expired.
 */
export const gatewayAnsweredWsRoutes: Partial<Record<WsRouteKey, ServerEvent>> = {
  ping: { event: socketEvents.pong, data: null },
};

export function routesOf(fn: HttpFunctionName): HttpRoute[] {
  return httpRoutes.filter((route) => route.fn === fn);
}
