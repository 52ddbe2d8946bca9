/** Companies: public signup, the super users' admin of every company, and a company's own reads. */
import '#adapters/wiring';
import { pageQuerySchema } from '#contracts/common';
import { companyInputSchema, companyUpdateSchema, signupSchema } from '#contracts/companies';
import { companySchedulesBodySchema, exportJobParamsSchema } from '#contracts/company-requests';
import {
  createCompanyBySuper,
  deleteCompanyBySuper,
  getCompanyFor,
  getCompanyPlanFor,
  listAllCompanies,
  listCompaniesPage,
  signup,
  updateCompanyBySuper,
  updateCompanySchedules,
} from '#domain/companies/companies';
import { companyExportStatus, requestCompanyExport } from '#domain/companies/data-export';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { created, HttpResult, noContent } from '#http/result';
import { parseId, parseInput } from '#http/validate';
import { billingActions } from './billing.ts';

/** The settings form sends `{ schedules: [...] }`; a bare array is accepted too. Errors name `schedules.<n>.<field>`. */
function schedulesOf(body: unknown): unknown {
  return Array.isArray(body) ? { schedules: body } : body;
}

export const handler = httpHandler('companies', {
  // A company's own data (issue 21 §5): the admin's export job and its status with the zip's link.
  'POST /companies/export': async (ctx) => {
    const identity = requireIdentity(ctx);
    return new HttpResult(202, await requestCompanyExport(identity.companyId, identity.userId));
  },
  'GET /companies/export/{jobId}': async (ctx) =>
    companyExportStatus(requireIdentity(ctx).companyId, parseInput(exportJobParamsSchema, ctx.params, 'params').jobId),
  // Billing's three routes ride in this Lambda (billing.ts says why).
  ...billingActions,
  'POST /companies/cadastro': async ({ body }) => created(await signup(parseInput(signupSchema, body))),
  'GET /companies/listPlan/{companyId}': async (ctx) => getCompanyPlanFor(requireIdentity(ctx), parseId(ctx.params, 'companyId')),
  'PUT /companies/{id}/schedules': async (ctx) =>
    updateCompanySchedules(
      requireIdentity(ctx),
      parseId(ctx.params),
      parseInput(companySchedulesBodySchema, schedulesOf(ctx.body)).schedules,
    ),
  'GET /companies/list': () => listAllCompanies(),
  'GET /companies': async ({ query }) => listCompaniesPage(parseInput(pageQuerySchema, query, 'query')),
  'GET /companies/{id}': async (ctx) => getCompanyFor(requireIdentity(ctx), parseId(ctx.params)),
  'POST /companies': async ({ body }) => created(await createCompanyBySuper(parseInput(companyInputSchema, body))),
  'PUT /companies/{id}': async ({ params, body }) => updateCompanyBySuper(parseId(params), parseInput(companyUpdateSchema, body ?? {})),
  'DELETE /companies/{id}': async (ctx) => {
    await deleteCompanyBySuper(requireIdentity(ctx), parseId(ctx.params));
    return noContent();
  },
});
