import type { InvoicePage } from '@conversa/functions/contracts/billing';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const invoiceKeys = {
  all: ['invoices'] as const,
  page: (searchParam: string) => [...invoiceKeys.all, 'page', searchParam] as const,
};

/** GET /invoices/all: the company's invoices, newest first, 20 a page (records/hasMore). */
export const fetchInvoices = (searchParam: string, pageNumber: number) =>
  api<InvoicePage>('/invoices/all', { query: { searchParam, pageNumber } });

export const invoicesInfiniteQueryOptions = (searchParam: string) =>
  infiniteQueryOptions({
    queryKey: invoiceKeys.page(searchParam),
    queryFn: ({ pageParam }) => fetchInvoices(searchParam, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageParam) => (last.hasMore ? pageParam + 1 : undefined),
  });

export const useInvoicesPage = (searchParam: string) => useInfiniteQuery(invoicesInfiniteQueryOptions(searchParam));
