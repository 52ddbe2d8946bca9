/**
 * The dashboard's counters, attendants and charts (SPEC 7 "Dashboard, chat, announcements, helps"),
 * the first day's checklist shown above them (issue 25), and the reports read from the same
 * counters (issue 22 §4).
 */
import { dashboardChartQuerySchema, dashboardQuerySchema } from '#contracts/dashboard';
import { onboardingUpdateSchema } from '#contracts/onboarding-requests';
import { reportQuerySchema } from '#contracts/reports';
import { getDashboard, getTicketsDay, getTicketsUsers } from '#domain/dashboard/dashboard';
import { getCompanyOnboarding, updateCompanyOnboarding } from '#domain/onboarding/onboarding';
import { getReportSummary, reportCsv } from '#domain/reports/reports';
import { requireIdentity } from '#http/access';
import { httpHandler } from '#http/handler';
import { textFile } from '#http/result';
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
  'GET /reports/summary': async (ctx) => getReportSummary(requireIdentity(ctx), parseInput(reportQuerySchema, ctx.query, 'query')),
  'GET /reports/export.csv': async (ctx) => {
    const summary = await getReportSummary(requireIdentity(ctx), parseInput(reportQuerySchema, ctx.query, 'query'));
    return textFile(reportCsv(summary), 'text/csv; charset=utf-8', `report-${summary.period.from}-${summary.period.to}.csv`);
  },
  'GET /onboarding': async (ctx) => getCompanyOnboarding(requireIdentity(ctx)),
  'PUT /onboarding': async (ctx) =>
    updateCompanyOnboarding(requireIdentity(ctx), parseInput(onboardingUpdateSchema, ctx.body ?? {}).dismissed),
});
