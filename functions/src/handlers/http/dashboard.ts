/** The dashboard's counters, attendants and charts (SPEC 7 "Dashboard, chat, announcements, helps"). */
import { dashboardChartQuerySchema, dashboardQuerySchema } from '#contracts/dashboard';
import { getDashboard, getTicketsDay, getTicketsUsers } from '#domain/dashboard/dashboard';
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
});
