/**
 * Invoices (BEHAVIOUR "Billing"): one per company and due date, issued INVOICE_LEAD_DAYS before it,
 * exactly once (storage/invoices.ts guards on company + due date); listed to the company's admins.
 */
import { logger } from '#commons/logger';
import { INVOICE_LEAD_DAYS, INVOICES_PAGE_SIZE, type InvoicePage, type ListInvoicesQuery } from '#contracts/billing';
import { addDays, todayIso } from '#domain/companies/due-date';
import type { Identity } from '#domain/identity';
import { type CompanyRecord, listCompanies } from '#storage/companies';
import { createInvoiceOnce, hasInvoiceFor, type InvoiceRecord, listInvoices } from '#storage/invoices';
import { getPlan, type PlanRecord } from '#storage/plans';

/** Whether the company's current due date is close enough (or past) to bill. */
export function invoiceIsDue(
  company: Pick<CompanyRecord, 'dueDate' | 'status'>,
  today: string,
): company is { dueDate: string; status: boolean } {
  if (!company.dueDate || company.status === false) return false;
  return addDays(company.dueDate, -INVOICE_LEAD_DAYS) <= today;
}

/** The invoice for the company's current due date, unless it was issued already. */
export async function issueInvoiceFor(
  company: CompanyRecord,
  plan: PlanRecord | undefined,
  now: Date = new Date(),
): Promise<InvoiceRecord | undefined> {
  if (!company.dueDate) return undefined;
  // A cheap read first: the hourly run meets the same issued invoices again and again.
  if (await hasInvoiceFor(company.id, company.dueDate)) return undefined;
  const at = now.toISOString();
  return createInvoiceOnce({
    companyId: company.id,
    detail: plan?.name ?? '',
    value: plan?.value ?? 0,
    dueDate: company.dueDate,
    status: 'open',
    planId: company.planId,
    createdAt: at,
    updatedAt: at,
  });
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
 */
export async function listInvoicesFor(identity: Pick<Identity, 'companyId'>, query: ListInvoicesQuery): Promise<InvoicePage> {
  const all = (await listInvoices(identity.companyId)).filter((invoice) => matchesSearch(invoice, query.searchParam));
  const start = (query.pageNumber - 1) * INVOICES_PAGE_SIZE;
  const records = all.slice(start, start + INVOICES_PAGE_SIZE);
  return { records, hasMore: start + records.length < all.length, count: all.length };
}
