/**
 * The REST calls of SPEC section 7 that functions/src/routes.ts does not serve yet, with the Lambdas
 * they will most likely need, for the resource budget test: the region's stack must still fit once
 * they exist. The local to-do list (/todolist) keeps its items in the browser and calls nothing.
 */
import { httpFunctions } from '@conversa/functions/routes';
import type { LambdaEntry } from '../lib/bundling.ts';
import type { DeployedRoute } from '../lib/http-api.ts';
import { httpEntry } from '../lib/paths.ts';

/** SPEC section 7, as written: 54 routes, less the SPEC_ROUTES_SERVED that routes.ts serves already. */
export const SPEC_ROUTES = 54;
/**
 * Campaigns CRUD (5), cancel and restart (2), media-upload POST and DELETE (2), campaign settings (2), contact lists (5 + list + upload), contact list items (5), file lists (5 + uploadList),
 * announcements (5 + media-upload POST and DELETE),
 * internal chat (GET /chats, POST /chats/{id}/read), the dashboard (3), queue integrations (5 + testSession),
 * prompts (5).
 */
export const SPEC_ROUTES_SERVED = 54; // + billing: POST /subscription, GET /invoices/all

export const specRoutes: readonly DeployedRoute[] = [
  // Plans and companies: billing's two are in routes.ts
  // Dashboard, chat (announcements are in routes.ts)
  // Campaigns, lists, files (campaigns CRUD, campaign settings, contact lists and their items are in
  // routes.ts, cancel, restart and the campaign's media too)
  // Prompts and integrations: all eleven are in routes.ts
];

/**
 * Routes the spec implies without listing them: the presigned uploads README's convention gives every
 * area with files, the internal chat's own conversation and messages, and the payment provider's
 * verified webhook (BEHAVIOUR "Billing").
 */
export const impliedRoutes: readonly DeployedRoute[] = [];

/**
 * One Lambda per new area. Their handlers do not exist yet: each points at an existing entry, which
 * is never bundled (the budget test synthesizes without bundling); only its resources are counted.
 */
export const specLambdas: readonly LambdaEntry[] = [...new Set([...specRoutes, ...impliedRoutes].map((route) => route.fn))]
  // An area that exists already (campaigns) serves its remaining routes from its own Lambda.
  .filter((name) => !(httpFunctions as readonly string[]).includes(name))
  .map((name) => ({
    name,
    entry: httpEntry('helps'),
    kind: 'http',
  }));
