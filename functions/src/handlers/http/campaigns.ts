/**
 * Campaigns and their settings (SPEC 7 "Campaigns, lists, files"); the plan's useCampaigns is checked
 * by the route table. cancel and restart drive the shipping engine (domain/campaigns/commands.ts);
 * the campaign's attachment goes multipart or as the key of a presigned upload (domain/campaigns/media.ts).
 */
import '#adapters/wiring';
import {
  campaignSettingsInputSchema,
  createCampaignSchema,
  listCampaignRecipientsQuerySchema,
  listCampaignsQuerySchema,
  updateCampaignSchema,
} from '#contracts/campaigns';
import { createCampaignFor, deleteCampaignFor, getCampaignFor, listCampaignsFor, updateCampaignFor } from '#domain/campaigns/campaigns';
import { cancelCampaignFor, restartCampaignFor } from '#domain/campaigns/commands';
import { attachUploadedCampaignMedia, deleteCampaignMedia, grantCampaignUpload, uploadCampaignMedia } from '#domain/campaigns/media';
import { listCampaignRecipientsFor } from '#domain/campaigns/recipients';
import { getCampaignSettingsFor, saveCampaignSettingsFor } from '#domain/campaigns/settings';
import { uploadedAttachmentSchema, uploadRequestSchema } from '#domain/media/attachments';
import { readMultipartForm } from '#domain/media/multipart';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';

export const handler = httpHandler('campaigns', {
  'GET /campaigns': async (ctx) => listCampaignsFor(requireIdentity(ctx), parseInput(listCampaignsQuerySchema, ctx.query, 'query')),
  'GET /campaigns/{id}': async (ctx) => getCampaignFor(requireIdentity(ctx), parseId(ctx.params)),
  'GET /campaigns/{id}/recipients': async (ctx) =>
    listCampaignRecipientsFor(requireIdentity(ctx), parseId(ctx.params), parseInput(listCampaignRecipientsQuerySchema, ctx.query, 'query')),
  'POST /campaigns': async (ctx) =>
    created(await createCampaignFor(requireIdentity(ctx), parseInput(createCampaignSchema, ctx.body ?? {}))),
  'PUT /campaigns/{id}': async (ctx) =>
    updateCampaignFor(requireIdentity(ctx), parseId(ctx.params), parseInput(updateCampaignSchema, ctx.body ?? {})),
  'DELETE /campaigns/{id}': async (ctx) => {
    await deleteCampaignFor(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
  'POST /campaigns/{id}/cancel': async (ctx) => cancelCampaignFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /campaigns/{id}/restart': async (ctx) => restartCampaignFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /campaigns/{id}/media-upload': async (ctx) => {
    const identity = requireIdentity(ctx);
    const id = parseId(ctx.params);
    const form = await readMultipartForm(ctx.event.headers?.['content-type'], ctx.rawBody);
    if (form) return uploadCampaignMedia(identity, id, form.files);
    // JSON: the key of a file the browser uploaded itself (POST /campaigns/{id}/uploads).
    return attachUploadedCampaignMedia(identity, id, parseInput(uploadedAttachmentSchema, ctx.body ?? {}).key);
  },
  'POST /campaigns/{id}/uploads': async (ctx) =>
    grantCampaignUpload(requireIdentity(ctx), parseId(ctx.params), parseInput(uploadRequestSchema, ctx.body ?? {})),
  'DELETE /campaigns/{id}/media-upload': async (ctx) => deleteCampaignMedia(requireIdentity(ctx), parseId(ctx.params)),
  'GET /campaign-settings': async (ctx) => getCampaignSettingsFor(requireIdentity(ctx)),
  'POST /campaign-settings': async (ctx) =>
    saveCampaignSettingsFor(requireIdentity(ctx), parseInput(campaignSettingsInputSchema, ctx.body ?? {}).settings),
});
