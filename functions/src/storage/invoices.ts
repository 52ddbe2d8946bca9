/**
 * Invoices (SPEC 3 "Invoice"), one tenant's few a year.
 *   invoice         pk = C#<companyId>   sk = INVOICE#<padded id>       the record (list = prefix query)
 *   due-date guard  pk = C#<companyId>   sk = INVOICE_DUE#<YYYY-MM-DD>  { invoiceId }
 * The guard is the "exactly once" of BEHAVIOUR "Billing": the invoice for a company's due date is
 * written in one transaction with a guard keyed on that due date, so two job runs (or two overlapping
 * ones) cannot both issue it. The webhook finds the invoice from the charge's externalReference, so
 * no index is needed. Paying writes the invoice and the company's new due date in one transaction.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '#contracts/billing';
import { companyKey } from './companies/companies.ts';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, table, transactionCancellationCodes } from './db.ts';
import { pad, tenantPk } from './table.ts';

export type InvoiceRecord = Invoice;

const invoiceKey = (companyId: number, id: number) => ({ pk: tenantPk(companyId), sk: `INVOICE#${pad(id)}` });
const dueGuardKey = (companyId: number, dueDate: string) => ({ pk: tenantPk(companyId), sk: `INVOICE_DUE#${dueDate}` });

export const getInvoice = (companyId: number, id: number): Promise<InvoiceRecord | undefined> =>
  getItem<InvoiceRecord>(invoiceKey(companyId, id).pk, invoiceKey(companyId, id).sk);

/** Every invoice of the company, newest first (one a recurrence period: a short list). */
export async function listInvoices(companyId: number): Promise<InvoiceRecord[]> {
  const items = await queryAll<InvoiceRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'INVOICE#' },
    ScanIndexForward: false,
    // Read right after issuing one (GET /invoices/all issues a due company's invoice first).
    ConsistentRead: true,
  });
  return items;
}

/** Whether the invoice for this due date was issued (a cheap read before spending an id). */
export async function hasInvoiceFor(companyId: number, dueDate: string): Promise<boolean> {
  const key = dueGuardKey(companyId, dueDate);
  return Boolean(await getItem(key.pk, key.sk));
}

/** The invoice issued for this due date, through its guard (how a lost issue race finds the winner's). */
export async function getInvoiceFor(companyId: number, dueDate: string): Promise<InvoiceRecord | undefined> {
  const key = dueGuardKey(companyId, dueDate);
  const guard = await getItem<{ invoiceId: number }>(key.pk, key.sk);
  return guard ? getInvoice(companyId, guard.invoiceId) : undefined;
}

/**
 * Issues the invoice for `record.dueDate` unless one exists: `false` when the guard was there already
 * (the id drawn is then left unused, a gap and nothing else).
 */
export async function createInvoiceOnce(record: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord | undefined> {
  const id = await nextId(tenantPk(record.companyId), 'INVOICE');
  const invoice: InvoiceRecord = { ...record, id };
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: { ...dueGuardKey(record.companyId, record.dueDate), entity: 'invoiceDueGuard', invoiceId: id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: table(),
              Item: { ...invoiceKey(record.companyId, id), entity: 'invoice', ...invoice },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return invoice;
  } catch (error) {
    if (transactionCancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return undefined;
    throw error;
  }
}

/**
 * Records the provider's charge on an open invoice. Conditional on the charge the caller saw (none,
 * or the one it replaces), so two racing subscriptions never both think theirs is the invoice's:
 * `false` means another one won, or the invoice was paid meanwhile.
 */
export async function attachCharge(
  companyId: number,
  id: number,
  charge: { paymentId: string; planId: number; value: number; detail: string },
  previousPaymentId: string | undefined,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: invoiceKey(companyId, id),
        UpdateExpression: 'SET paymentId = :pid, planId = :plan, #value = :value, detail = :detail, updatedAt = :now',
        ConditionExpression: previousPaymentId
          ? '#status = :open AND paymentId = :previous'
          : '#status = :open AND attribute_not_exists(paymentId)',
        ExpressionAttributeNames: { '#status': 'status', '#value': 'value' },
        ExpressionAttributeValues: {
          ':pid': charge.paymentId,
          ':plan': charge.planId,
          ':value': charge.value,
          ':detail': charge.detail,
          ':now': new Date().toISOString(),
          ':open': 'open',
          ...(previousPaymentId ? { ':previous': previousPaymentId } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * The payment and what it buys, in one transaction: the invoice becomes paid (only if still open and
 * still for this charge) and the company gets its new due date and the plan paid for (only if its due
 * date is still the one the caller read, so a concurrent "+ Vencimiento" is not overwritten). `false`:
 * either condition failed (a replayed event finds the invoice paid). An invoice of value 0 is settled
 * the same way with no charge (domain/billing/invoices.ts settleFree).
 */
export async function markPaidAndRenew(input: {
  invoice: InvoiceRecord;
  /** The provider's charge paid; `null` settles an invoice of nothing to pay (value 0, no charge). */
  paymentId: string | null;
  paidAt: string;
  company: { id: number; previousDueDate: string | null; dueDate: string; planId: number };
}): Promise<boolean> {
  const { invoice, company } = input;
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table(),
              Key: invoiceKey(invoice.companyId, invoice.id),
              UpdateExpression: 'SET #status = :paid, paidAt = :at, updatedAt = :at',
              ...(input.paymentId === null
                ? {
                    ConditionExpression: '#status = :open AND #value = :zero AND attribute_not_exists(paymentId)',
                    ExpressionAttributeNames: { '#status': 'status', '#value': 'value' },
                    ExpressionAttributeValues: { ':paid': 'paid', ':open': 'open', ':at': input.paidAt, ':zero': 0 },
                  }
                : {
                    ConditionExpression: '#status = :open AND paymentId = :pid',
                    ExpressionAttributeNames: { '#status': 'status' },
                    ExpressionAttributeValues: { ':paid': 'paid', ':open': 'open', ':at': input.paidAt, ':pid': input.paymentId },
                  }),
            },
          },
          {
            Update: {
              TableName: table(),
              Key: companyKey(company.id),
              UpdateExpression: 'SET dueDate = :due, planId = :plan, updatedAt = :at',
              ConditionExpression: company.previousDueDate
                ? 'attribute_exists(pk) AND dueDate = :previous'
                : 'attribute_exists(pk) AND (attribute_not_exists(dueDate) OR dueDate = :null)',
              ExpressionAttributeValues: {
                ':due': company.dueDate,
                ':plan': company.planId,
                ':at': input.paidAt,
                ...(company.previousDueDate ? { ':previous': company.previousDueDate } : { ':null': null }),
              },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (transactionCancellationCodes(error)) return false;
    throw error;
  }
}
