/**
 * Invoices (BEHAVIOUR "Billing"): one per company and due date, issued INVOICE_LEAD_DAYS before it,
 * exactly once (storage/invoices.ts guards on company + due date); listed to the company's admins.
 * The hourly job is not the only issuer (issue 25): a company that wants to pay must find something to
 * pay at once, so its admin's Finance page issues a due company's invoice, and "Subscribe now" makes
 * the open invoice it pays; the same guard keeps it to one invoice a period whoever issues it.
 */
import { ConflictError } from '#commons/errors';
import { logger } from '#commons/logger';
import { INVOICE_LEAD_DAYS, INVOICES_PAGE_SIZE, type InvoicePage, type ListInvoicesQuery } from '#contracts/billing';
import { recurrenceMonths } from '#contracts/companies';
import { addDays, todayIso } from '#domain/companies/due-date';
import type { Identity } from '#domain/identity';
import { type CompanyRecord, listCompanies } from '#storage/companies/companies';
import { createInvoiceOnce, getInvoiceFor, hasInvoiceFor, type InvoiceRecord, listInvoices, markPaidAndRenew } from '#storage/invoices';
import { getPlan, type PlanRecord } from '#storage/plans/plans';
import { publishPaid, renewedDueDate } from './payment-webhook.ts';

/** Who pays: a company's admin, with the company and its plan the HTTP layer loaded. */
export interface BillingCaller extends Identity {
  company: CompanyRecord;
}

/** Whether the company's current due date is close enough (or past) to bill. */
export function invoiceIsDue(
  company: Pick<CompanyRecord, 'dueDate' | 'status'>,
  today: string,
): company is { dueDate: string; status: boolean } {
  if (!company.dueDate || company.status === false) return false;
  return addDays(company.dueDate, -INVOICE_LEAD_DAYS) <= today;
}

/** The invoice for the period ending `dueDate`, unless it was issued already (then `undefined`). */
function issueFor(company: CompanyRecord, plan: PlanRecord | undefined, dueDate: string, now: Date): Promise<InvoiceRecord | undefined> {
  const at = now.toISOString();
  return createInvoiceOnce({
    companyId: company.id,
    detail: plan?.name ?? '',
    value: plan?.value ?? 0,
    dueDate,
    status: 'open',
    planId: company.planId,
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * The invoice for the company's current due date, unless it was issued already. A period that costs
 * nothing (the company's plan is worth 0) is settled as it is issued: paid, and the company renewed
 * as a payment renews it (settleFree).
 */
export async function issueInvoiceFor(
  company: CompanyRecord,
  plan: PlanRecord | undefined,
  now: Date = new Date(),
): Promise<InvoiceRecord | undefined> {
  const { dueDate } = company;
  if (!dueDate) return undefined;
  // A cheap read first: the hourly run meets the same issued invoices again and again.
  if (await hasInvoiceFor(company.id, dueDate)) return undefined;
  const issued = await issueFor(company, plan, dueDate, now);
  return issued && plan?.value === 0 && issued.value === 0 ? settleFree({ ...company, dueDate }, issued, now) : issued;
}

/**
 * A free plan's invoice, paid at once with no charge, its company's due date moved a recurrence on
 * (renewedDueDate, as the payment webhook does) and its screens told (CONCLUIDA). Before, a company on
 * a plan of value 0 met an invoice of R$ 0,00 it could not pay ("Subscribe now" refuses a plan with
 * nothing to pay) and was locked out at its due date. The invoice stays open when the company's due
 * date moved meanwhile (a super admin's "+ Vencimento"): the next issue settles the new period.
 */
async function settleFree(company: CompanyRecord & { dueDate: string }, invoice: InvoiceRecord, now: Date): Promise<InvoiceRecord> {
  const paidAt = now.toISOString();
  const dueDate = renewedDueDate(company.dueDate, recurrenceMonths[company.recurrence ?? 'MENSAL'], todayIso(now));
  const done = await markPaidAndRenew({
    invoice,
    paymentId: null,
    paidAt,
    company: { id: company.id, previousDueDate: company.dueDate, dueDate, planId: company.planId },
  });
  if (!done) {
    logger.warn('free invoice not settled: the company changed meanwhile', { companyId: company.id, invoiceId: invoice.id });
    return invoice;
  }
  await publishPaid(invoice, paidAt, dueDate);
  return { ...invoice, status: 'paid', paidAt, updatedAt: paidAt };
}

/**
 * The open invoice "Subscribe now" pays: the one for the current due date, else any still open (a due
 * date moved by hand leaves its invoice payable, and paying any renews from the company's due date),
 * else a new one for the current period, issued now whatever the lead time. Two callers racing issue
 * one invoice (the due-date guard); the loser reads the winner's.
 */
export async function openInvoiceToPay(
  company: CompanyRecord,
  plan: PlanRecord | undefined,
  now: Date = new Date(),
): Promise<InvoiceRecord> {
  const open = (await listInvoices(company.id)).filter((invoice) => invoice.status === 'open');
  const current = open.find((invoice) => invoice.dueDate === company.dueDate) ?? open[0];
  if (current) return current;
  // No due date at all: the period starts today (renewedDueDate counts a paid period from today too).
  const period = company.dueDate ?? todayIso(now);
  const issued = (await issueFor(company, plan, period, now)) ?? (await getInvoiceFor(company.id, period));
  // The period's invoice exists and is paid (a due date set back by hand to a paid period): nothing to pay.
  if (issued?.status !== 'open') throw new ConflictError('ERR_INVOICE_ALREADY_PAID');
  return issued;
}

export interface InvoiceRunReport {
  companies: number;
  due: number;
  issued: number;
  errors: number;
}

/** The scheduled job: every company whose due date is within the lead time gets its invoice, once. */
export async function issueDueInvoices(now: Date = new Date()): Promise<InvoiceRunReport> {
  const today = todayIso(now);
  const companies = await listCompanies();
  const plans = new Map<number, Promise<PlanRecord | undefined>>();
  const planOf = (id: number) => {
    if (!plans.has(id)) plans.set(id, getPlan(id));
    return plans.get(id) as Promise<PlanRecord | undefined>;
  };
  const report: InvoiceRunReport = { companies: companies.length, due: 0, issued: 0, errors: 0 };
  for (const company of companies) {
    if (!invoiceIsDue(company, today)) continue;
    report.due++;
    try {
      if (await issueInvoiceFor(company, await planOf(company.planId), now)) report.issued++;
    } catch (error) {
      // One company's failure must not stop the others; the next run retries it (the write is guarded).
      logger.warn('invoice not issued', { companyId: company.id, error: error as Error });
      report.errors++;
    }
  }
  return report;
}

const matchesSearch = (invoice: InvoiceRecord, search: string): boolean => {
  if (!search) return true;
  const needle = search.toLowerCase();
  return [String(invoice.id), invoice.detail, invoice.dueDate, invoice.value.toFixed(2)].some((field) =>
    field.toLowerCase().includes(needle),
  );
};

/**
 * GET /invoices/all: the caller's company's invoices only (the tenant comes from the token; a super
 * user sees their own company's too: other companies' billing is not theirs to page through here).
 * A company has one invoice a recurrence period, so filtering the whole list in memory is bounded.
 * A due (or expired) company whose invoice the hourly job has not issued yet gets it now: an expired
 * admin, confined to this page, always finds an invoice to pay.
 */
export async function listInvoicesFor(
  caller: Pick<BillingCaller, 'companyId' | 'company' | 'plan'>,
  query: ListInvoicesQuery,
  now: Date = new Date(),
): Promise<InvoicePage> {
  if (caller.company.id === caller.companyId && invoiceIsDue(caller.company, todayIso(now))) {
    await issueInvoiceFor(caller.company, caller.plan, now);
  }
  const all = (await listInvoices(caller.companyId)).filter((invoice) => matchesSearch(invoice, query.searchParam));
  const start = (query.pageNumber - 1) * INVOICES_PAGE_SIZE;
  const records = all.slice(start, start + INVOICES_PAGE_SIZE);
  return { records, hasMore: start + records.length < all.length, count: all.length };
}
