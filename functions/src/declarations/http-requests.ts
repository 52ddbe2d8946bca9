/**
 * What each HTTP route takes, declared once from the zod schemas its handler validates with: the
 * OpenAPI document (`GET /api/openapi.json`, declarations/openapi.ts) is generated from this table,
 * never written by hand. functions/test/openapi.test.ts runs every handler's action and fails when it
 * validates with a schema other than the one declared here for its route, or when a route of
 * routes.ts has no entry: the document and the handlers cannot drift apart.
 *
 * Kept out of routes.ts (bundled into every Lambda): this table imports every request schema, and only
 * the document's own chunk loads it.
 *
 * - body: the JSON body, parsed with `parseInput(schema, ctx.body)`.
 * - query: the query string, parsed with `parseInput(schema, ctx.query, 'query')`.
 * - params: the path parameters, parsed together with `parseInput(schema, ctx.params, 'params')`.
 * - param: path parameters parsed one by one (`parseInput(schema, ctx.params.email, 'email')`). A path
 *   parameter named neither here nor in `params` is a numeric id read by `parseId` when its name is
 *   `id` or ends in `Id`, else a plain string.
 * - upload: the route also takes a multipart form, with its files under this field (and the body's
 *   fields as form fields).
 */
import type * as z from 'zod';
import { createAnnouncementSchema, listAnnouncementsQuerySchema, updateAnnouncementSchema } from '#contracts/announcements';
import { auditQuerySchema } from '#contracts/audit';
import { claimSessionSchema, loginSchema, refreshSchema, resetPasswordParamsSchema } from '#contracts/auth';
import { listInvoicesQuerySchema, paymentNotificationSchema, subscriptionInputSchema } from '#contracts/billing';
import {
  campaignSettingsInputSchema,
  createCampaignSchema,
  listCampaignRecipientsQuerySchema,
  listCampaignsQuerySchema,
  updateCampaignSchema,
} from '#contracts/campaigns';
import {
  createChatSchema,
  listChatMessagesQuerySchema,
  listChatsQuerySchema,
  readChatSchema,
  sendChatMessageSchema,
  updateChatSchema,
} from '#contracts/chats';
import { emailSchema, idParamSchema, pageQuerySchema } from '#contracts/common';
import { companyInputSchema, companyUpdateSchema, signupSchema } from '#contracts/companies';
import { companySchedulesBodySchema, exportJobParamsSchema } from '#contracts/company-requests';
import { connectionInputSchema, connectionUpdateSchema } from '#contracts/connections';
import { eraseContactSchema } from '#contracts/contact-data';
import {
  contactListInputSchema,
  createContactListItemSchema,
  listContactListItemsQuerySchema,
  listContactListsQuerySchema,
  updateContactListItemSchema,
} from '#contracts/contact-lists';
import {
  createContactSchema,
  exportContactsQuerySchema,
  listAllContactsQuerySchema,
  listContactsQuerySchema,
  updateContactSchema,
} from '#contracts/contact-requests';
import { dashboardChartQuerySchema, dashboardQuerySchema } from '#contracts/dashboard';
import { attachFileListUploadsSchema, fileListInputSchema, listFileListsQuerySchema, updateFileListSchema } from '#contracts/file-lists';
import { helpInputSchema } from '#contracts/helps';
import { mfaChallengeSchema, mfaDisableSchema, mfaResetQuerySchema, mfaVerifySchema } from '#contracts/mfa';
import { onboardingUpdateSchema } from '#contracts/onboarding-requests';
import { planInputSchema } from '#contracts/plans';
import { createPromptSchema, listPromptsQuerySchema, updatePromptSchema } from '#contracts/prompts';
import {
  createIntegrationSchema,
  listIntegrationsQuerySchema,
  testSessionSchema,
  updateIntegrationSchema,
} from '#contracts/queue-integrations';
import {
  createQueueOptionSchema,
  createQueueSchema,
  queueOptionsQuerySchema,
  updateQueueOptionSchema,
  updateQueueSchema,
} from '#contracts/queues';
import { createQuickMessageSchema, listQuickMessagesQuerySchema, updateQuickMessageSchema } from '#contracts/quick-message-requests';
import { reportQuerySchema } from '#contracts/reports';
import { createScheduleSchema, listSchedulesQuerySchema, updateScheduleSchema } from '#contracts/schedule-requests';
import { updateSettingSchema } from '#contracts/settings';
import { createTagSchema, listTagsQuerySchema, moveTicketTagSchema, syncTagsSchema, updateTagSchema } from '#contracts/tag-requests';
import { createTicketNoteSchema, listTicketNotesQuerySchema } from '#contracts/ticket-note-requests';
import {
  bulkTicketsSchema,
  createTicketSchema,
  kanbanQuerySchema,
  listTicketsQuerySchema,
  ticketUuidParamsSchema,
  updateTicketSchema,
} from '#contracts/ticket-requests';
import { createUserSchema, updateUserSchema } from '#contracts/users';
import { createWebhookSchema, deliveryIdSchema, updateWebhookSchema, webhookDeliveriesQuerySchema } from '#contracts/webhooks';
import { externalSendJsonSchema } from '#domain/external-api/input';
import { uploadedAttachmentSchema, uploadRequestSchema } from '#domain/media/upload-requests';
import { readMentionsSchema } from '#domain/mentions/requests';
import { listMessagesQuerySchema, messageIdSchema, sendMessageJsonSchema } from '#domain/outbound/input';

export interface RequestDeclaration {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  param?: Record<string, z.ZodType>;
  upload?: string;
}

const is = (summary: string, request: Omit<RequestDeclaration, 'summary'> = {}): RequestDeclaration => ({ summary, ...request });

/** Keyed by route key (`METHOD /path`, routes.ts). */
export const httpRequests: Readonly<Record<string, RequestDeclaration>> = {
  // auth
  'POST /auth/login': is('Sign in with email and password', { body: loginSchema }),
  'POST /auth/refresh_token': is('Refresh the session', { body: refreshSchema }),
  'GET /auth/me': is('The signed-in user'),
  'DELETE /auth/logout': is('Sign out'),
  'POST /auth/session': is('Claim the single web session after a Cognito sign-in', { body: claimSessionSchema }),
  'GET /auth/mfa': is('Second factor: enabled and required'),
  'POST /auth/mfa/setup': is('Second factor: a new secret to enrol'),
  'POST /auth/mfa/verify': is('Second factor: confirm the enrolment', { body: mfaVerifySchema }),
  'DELETE /auth/mfa': is('Second factor: turn it off', { body: mfaDisableSchema }),
  'POST /auth/mfa/challenge': is("Second factor: pass the sign-in's challenge", { body: mfaChallengeSchema }),
  'DELETE /users/{id}/mfa': is("Reset a user's second factor", { param: { id: idParamSchema }, query: mfaResetQuerySchema }),
  'POST /forgetpassword/{email}': is('Send a password reset code', { param: { email: emailSchema } }),
  'POST /resetpasswords/{email}/{token}/{newPassword}': is('Reset the password with the code', { params: resetPasswordParamsSchema }),
  'GET /version': is("The server's version"),
  'GET /api/openapi.json': is('This document: the API described in OpenAPI 3.1'),

  // settings
  'GET /settings': is("The company's settings"),
  'PUT /settings/{key}': is('Change a setting', { body: updateSettingSchema }),
  'GET /audit': is('The audit trail, a page', { query: auditQuerySchema }),
  'GET /audit/export.csv': is('The audit trail as CSV', { query: auditQuerySchema }),

  // plans
  'GET /plans/list': is('Public plans'),
  'GET /plans/all': is('Every plan'),
  'GET /plans/{id}': is('A plan'),
  'POST /plans': is('Create a plan', { body: planInputSchema }),
  'PUT /plans/{id}': is('Change a plan', { body: planInputSchema }),
  'DELETE /plans/{id}': is('Delete a plan'),

  // companies (and billing, in the same Lambda)
  'POST /companies/cadastro': is('Sign up a company', { body: signupSchema }),
  'GET /companies/listPlan/{companyId}': is("A company's plan"),
  'PUT /companies/{id}/schedules': is("The company's opening hours", { body: companySchedulesBodySchema }),
  'POST /companies/export': is("Export the company's data (a job)"),
  'GET /companies/export/{jobId}': is('The export job and its link', { params: exportJobParamsSchema }),
  'GET /companies/list': is('Every company'),
  'GET /companies': is('Companies, a page', { query: pageQuerySchema }),
  'GET /companies/{id}': is('A company'),
  'POST /companies': is('Create a company', { body: companyInputSchema }),
  'PUT /companies/{id}': is('Change a company', { body: companyUpdateSchema }),
  'DELETE /companies/{id}': is('Delete a company'),
  'GET /invoices/all': is("The company's invoices", { query: listInvoicesQuerySchema }),
  'POST /subscription': is('Pay an invoice (PIX charge)', { body: subscriptionInputSchema }),
  'POST /subscription/webhook': is("The payment provider's notifications", { body: paymentNotificationSchema }),

  // users
  'GET /users/list': is("Users' names"),
  'GET /users': is('Users, a page', { query: pageQuerySchema }),
  'GET /users/{id}': is('A user'),
  'POST /users': is('Create a user', { body: createUserSchema }),
  'PUT /users/{id}': is('Change a user', { body: updateUserSchema }),
  'DELETE /users/{id}': is('Delete a user'),

  // connections
  'GET /whatsapp': is('Connections'),
  'GET /whatsapp/{id}': is('A connection'),
  'POST /whatsapp': is('Create a connection', { body: connectionInputSchema }),
  'PUT /whatsapp/{id}': is('Change a connection', { body: connectionUpdateSchema }),
  'DELETE /whatsapp/{id}': is('Delete a connection'),
  'POST /whatsappsession/{id}': is("Start the connection's session"),
  'PUT /whatsappsession/{id}': is('Ask for a new QR code'),
  'DELETE /whatsappsession/{id}': is("Disconnect the connection's session"),

  // queues
  'GET /queue': is('Queues'),
  'GET /queue/{id}': is('A queue'),
  'POST /queue': is('Create a queue', { body: createQueueSchema }),
  'PUT /queue/{id}': is('Change a queue', { body: updateQueueSchema }),
  'DELETE /queue/{id}': is('Delete a queue'),
  'GET /queue-options': is("A queue's chatbot options", { query: queueOptionsQuerySchema }),
  'POST /queue-options': is('Create a chatbot option', { body: createQueueOptionSchema }),
  'PUT /queue-options/{id}': is('Change a chatbot option', { body: updateQueueOptionSchema }),
  'DELETE /queue-options/{id}': is('Delete a chatbot option'),

  // tickets
  'GET /tickets': is('Tickets the caller may see', { query: listTicketsQuerySchema }),
  'GET /tickets/u/{uuid}': is('A ticket by its uuid', { params: ticketUuidParamsSchema }),
  'GET /tickets/{id}': is('A ticket'),
  'POST /tickets': is('Open a ticket', { body: createTicketSchema }),
  'POST /tickets/bulk': is('One action on up to 100 tickets', { body: bulkTicketsSchema }),
  'PUT /tickets/{id}': is('Change a ticket (accept, transfer, close...)', { body: updateTicketSchema }),
  'DELETE /tickets/{id}': is('Delete a ticket'),
  'GET /ticket/kanban': is('Tickets by kanban lane', { query: kanbanQuerySchema }),

  // messages
  'GET /messages/{id}': is("A ticket's messages", { query: listMessagesQuerySchema }),
  'POST /messages/{id}': is('Send a message on a ticket (or a private note)', { body: sendMessageJsonSchema, upload: 'medias' }),
  'POST /messages/{id}/uploads': is('A presigned upload for a message file', { body: uploadRequestSchema }),
  'DELETE /messages/{id}': is('Delete one of our messages', { param: { id: messageIdSchema } }),
  'POST /messages/{id}/retry': is('Send a failed message again', { param: { id: messageIdSchema } }),
  'GET /mentions': is("The caller's mentions"),
  'POST /mentions/read': is('Mark mentions read', { body: readMentionsSchema }),
  'GET /public/{path+}': is('A private media file (a presigned redirect)'),
  'POST /api/messages/send': is('Send a message to a number (external API)', { body: externalSendJsonSchema, upload: 'medias' }),

  // contacts
  'GET /contacts': is('Contacts, a page', { query: listContactsQuerySchema }),
  'GET /contacts/list': is("Every contact's name and number", { query: listAllContactsQuerySchema }),
  'GET /contacts/export': is('Export contacts, a page', { query: exportContactsQuerySchema }),
  'POST /contacts/import': is('Import contacts (a spreadsheet, JSON rows, or the phone)', { upload: 'file' }),
  'GET /contacts/{id}': is('A contact'),
  'POST /contacts': is('Create a contact', { body: createContactSchema }),
  'PUT /contacts/{id}': is('Change a contact', { body: updateContactSchema }),
  'DELETE /contacts/{id}': is('Delete a contact'),
  'GET /contacts/{id}/export': is("A contact's whole history"),
  'POST /contacts/{id}/erase': is("Erase a contact's data", { body: eraseContactSchema }),

  // tags
  'GET /tags': is('Tags, a page', { query: listTagsQuerySchema }),
  'GET /tags/list': is('Every tag'),
  'GET /tags/kanban': is('Kanban lanes'),
  'GET /tags/{id}': is('A tag'),
  'POST /tags': is('Create a tag', { body: createTagSchema }),
  'PUT /tags/{id}': is('Change a tag', { body: updateTagSchema }),
  'DELETE /tags/{id}': is('Delete a tag'),
  'POST /tags/sync': is("Set a ticket's tags", { body: syncTagsSchema }),
  'PUT /ticket-tags/{ticketId}/{tagId}': is('Tag a ticket'),
  'DELETE /ticket-tags/{ticketId}': is("Clear a ticket's tags"),
  'POST /ticket-tags/{ticketId}/move': is('Move a ticket between kanban lanes', { body: moveTicketTagSchema }),

  // ticket notes
  'POST /ticket-notes': is('Add a note to a ticket', { body: createTicketNoteSchema }),
  'GET /ticket-notes/list': is("A ticket's notes", { query: listTicketNotesQuerySchema }),
  'DELETE /ticket-notes/{id}': is('Delete a note'),

  // quick messages
  'GET /quick-messages': is('Quick messages, a page', { query: listQuickMessagesQuerySchema }),
  'GET /quick-messages/list': is("The caller's quick replies"),
  'GET /quick-messages/{id}': is('A quick message'),
  'POST /quick-messages': is('Create a quick message', { body: createQuickMessageSchema }),
  'PUT /quick-messages/{id}': is('Change a quick message', { body: updateQuickMessageSchema }),
  'DELETE /quick-messages/{id}': is('Delete a quick message'),
  'POST /quick-messages/{id}/media-upload': is("Attach the quick message's file", { body: uploadedAttachmentSchema, upload: 'file' }),
  'DELETE /quick-messages/{id}/media-upload': is("Remove the quick message's file"),
  'POST /quick-messages/{id}/uploads': is('A presigned upload for its file', { body: uploadRequestSchema }),

  // schedules
  'GET /schedules': is('Scheduled messages, a page', { query: listSchedulesQuerySchema }),
  'GET /schedules/{id}': is('A scheduled message'),
  'POST /schedules': is('Schedule a message', { body: createScheduleSchema }),
  'PUT /schedules/{id}': is('Change a scheduled message', { body: updateScheduleSchema }),
  'DELETE /schedules/{id}': is('Delete a scheduled message'),
  'POST /schedules/{id}/media-upload': is("Attach the schedule's file", { body: uploadedAttachmentSchema, upload: 'file' }),
  'DELETE /schedules/{id}/media-upload': is("Remove the schedule's file"),
  'POST /schedules/{id}/uploads': is('A presigned upload for its file', { body: uploadRequestSchema }),

  // campaigns
  'GET /campaigns': is('Campaigns, a page', { query: listCampaignsQuerySchema }),
  'GET /campaigns/{id}': is('A campaign'),
  'GET /campaigns/{id}/recipients': is("A campaign's recipients and their states", { query: listCampaignRecipientsQuerySchema }),
  'POST /campaigns': is('Create a campaign', { body: createCampaignSchema }),
  'PUT /campaigns/{id}': is('Change a campaign', { body: updateCampaignSchema }),
  'DELETE /campaigns/{id}': is('Delete a campaign'),
  'POST /campaigns/{id}/cancel': is('Cancel a campaign'),
  'POST /campaigns/{id}/restart': is('Restart a campaign'),
  'POST /campaigns/{id}/media-upload': is("Attach the campaign's file", { body: uploadedAttachmentSchema, upload: 'file' }),
  'DELETE /campaigns/{id}/media-upload': is("Remove the campaign's file"),
  'POST /campaigns/{id}/uploads': is('A presigned upload for its file', { body: uploadRequestSchema }),
  'GET /campaign-settings': is('Campaign settings'),
  'POST /campaign-settings': is('Save campaign settings', { body: campaignSettingsInputSchema }),

  // contact lists
  'GET /contact-lists': is('Contact lists, a page', { query: listContactListsQuerySchema }),
  'GET /contact-lists/list': is('Every contact list'),
  'GET /contact-lists/{id}': is('A contact list'),
  'POST /contact-lists': is('Create a contact list', { body: contactListInputSchema }),
  'PUT /contact-lists/{id}': is('Change a contact list', { body: contactListInputSchema }),
  'DELETE /contact-lists/{id}': is('Delete a contact list'),
  'POST /contact-lists/{id}/check-numbers': is("Check the list's numbers on WhatsApp again"),
  'POST /contact-lists/{id}/upload': is("Upload a list's contacts (a spreadsheet or JSON rows)", { upload: 'file' }),
  'GET /contact-list-items': is("A list's contacts, a page", { query: listContactListItemsQuerySchema }),
  'GET /contact-list-items/{id}': is("A list's contact"),
  'POST /contact-list-items': is('Add a contact to a list', { body: createContactListItemSchema }),
  'PUT /contact-list-items/{id}': is("Change a list's contact", { body: updateContactListItemSchema }),
  'DELETE /contact-list-items/{id}': is("Delete a list's contact"),

  // file lists
  'GET /files': is('File lists, a page', { query: listFileListsQuerySchema }),
  'GET /files/{id}': is('A file list'),
  'POST /files': is('Create a file list', { body: fileListInputSchema }),
  'PUT /files/{id}': is('Change a file list', { body: updateFileListSchema }),
  'DELETE /files/{id}': is('Delete a file list'),
  'POST /files/uploadList/{id}': is('Add files to a list (multipart, or keys of uploaded files)', {
    body: attachFileListUploadsSchema,
    upload: 'files',
  }),
  'POST /files/uploadList/{id}/uploads': is('A presigned upload for a file of the list', { body: uploadRequestSchema }),

  // dashboard and reports
  'GET /dashboard': is("The dashboard's counters", { query: dashboardQuerySchema }),
  'GET /dashboard/ticketsUsers': is('Tickets by attendant', { query: dashboardChartQuerySchema }),
  'GET /dashboard/ticketsDay': is('Tickets by day', { query: dashboardChartQuerySchema }),
  'GET /reports/summary': is('A report of a period', { query: reportQuerySchema }),
  'GET /reports/export.csv': is('A report of a period as CSV', { query: reportQuerySchema }),
  'GET /onboarding': is("The first day's checklist"),
  'PUT /onboarding': is('Dismiss the checklist', { body: onboardingUpdateSchema }),

  // helps
  'GET /helps/list': is('Help videos'),
  'GET /helps': is('Help videos'),
  'POST /helps': is('Create a help video', { body: helpInputSchema }),
  'PUT /helps/{id}': is('Change a help video', { body: helpInputSchema }),
  'DELETE /helps/{id}': is('Delete a help video'),

  // announcements
  'GET /announcements': is('Announcements', { query: listAnnouncementsQuerySchema }),
  'GET /announcements/{id}': is('An announcement'),
  'POST /announcements': is('Create an announcement', { body: createAnnouncementSchema }),
  'PUT /announcements/{id}': is('Change an announcement', { body: updateAnnouncementSchema }),
  'DELETE /announcements/{id}': is('Delete an announcement'),
  'POST /announcements/{id}/media-upload': is("Attach the announcement's file", { body: uploadedAttachmentSchema, upload: 'file' }),
  'DELETE /announcements/{id}/media-upload': is("Remove the announcement's file"),
  'POST /announcements/{id}/uploads': is('A presigned upload for its file', { body: uploadRequestSchema }),

  // internal chat
  'GET /chats': is('Internal chats', { query: listChatsQuerySchema }),
  'GET /chats/{id}': is('A chat'),
  'POST /chats': is('Create a chat', { body: createChatSchema }),
  'PUT /chats/{id}': is('Change a chat', { body: updateChatSchema }),
  'DELETE /chats/{id}': is('Delete a chat'),
  'GET /chats/{id}/messages': is("A chat's messages", { query: listChatMessagesQuerySchema }),
  'POST /chats/{id}/messages': is('Send a chat message', { body: sendChatMessageSchema }),
  'POST /chats/{id}/read': is('Mark a chat read', { body: readChatSchema }),

  // queue integrations
  'GET /queueIntegration': is('Integrations, a page', { query: listIntegrationsQuerySchema }),
  'GET /queueIntegration/{id}': is('An integration'),
  'POST /queueIntegration': is('Create an integration', { body: createIntegrationSchema }),
  'PUT /queueIntegration/{id}': is('Change an integration', { body: updateIntegrationSchema }),
  'DELETE /queueIntegration/{id}': is('Delete an integration'),
  'POST /queueIntegration/testSession': is('Try Dialogflow credentials', { body: testSessionSchema }),

  // prompts
  'GET /prompt': is('AI prompts', { query: listPromptsQuerySchema }),
  'GET /prompt/{id}': is('An AI prompt'),
  'POST /prompt': is('Create an AI prompt', { body: createPromptSchema }),
  'PUT /prompt/{id}': is('Change an AI prompt', { body: updatePromptSchema }),
  'DELETE /prompt/{id}': is('Delete an AI prompt'),

  // webhooks
  'GET /webhooks': is('Webhook endpoints'),
  'POST /webhooks': is('Create a webhook endpoint', { body: createWebhookSchema }),
  'GET /webhooks/{id}': is('A webhook endpoint'),
  'PUT /webhooks/{id}': is('Change a webhook endpoint', { body: updateWebhookSchema }),
  'DELETE /webhooks/{id}': is('Delete a webhook endpoint'),
  'POST /webhooks/{id}/rotate-secret': is("Rotate the endpoint's signing secret"),
  'POST /webhooks/{id}/test': is('Send a test event'),
  'GET /webhooks/{id}/deliveries': is("The endpoint's deliveries, a page", { query: webhookDeliveriesQuerySchema }),
  'POST /webhooks/{id}/deliveries/{deliveryId}/resend': is('Send a delivery again', { param: { deliveryId: deliveryIdSchema } }),
};
