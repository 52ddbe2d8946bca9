/**
 * The dashboard's counters, attendants and charts (SPEC 7 "Dashboard, chat, announcements, helps"),
 * and the first day's checklist shown above them (issue 25).
 */
import { dashboardChartQuerySchema, dashboardQuerySchema } from '#contracts/dashboard';
import { onboardingUpdateSchema } from '#contracts/onboarding-requests';
import { getDashboard, getTicketsDay, getTicketsUsers } from '#domain/dashboard/dashboard';
import { getCompanyOnboarding, updateCompanyOnboarding } from '#domain/onboarding/onboarding';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { parseInput } from '#http/validate';

export const handler = httpHandler('dashboard', {
  'GET /dashboard': async (ctx) => {
    const { requests, ...data } = await getDashboard(requireIdentity(ctx), parseInput(dashboardQuerySchema, ctx.query, 'query'));
    return data;
  },
  'GET /dashboard/ticketsUsers': async (ctx) =>
    getTicketsUsers(requireIdentity(ctx), parseInput(dashboardChartQuerySchema, ctx.query, 'query')),
  'GET /dashboard/ticketsDay': async (ctx) =>
    getTicketsDay(requireIdentity(ctx), parseInput(dashboardChartQuerySchema, ctx.query, 'query')),
  'GET /onboarding': async (ctx) => getCompanyOnboarding(requireIdentity(ctx)),
  'PUT /onboarding': async (ctx) =>
    updateCompanyOnboarding(requireIdentity(ctx), parseInput(onboardingUpdateSchema, ctx.body ?? {}).dismissed),
});
