import { channels } from '@conversa/functions/contracts';
import type { InvoicePage, PaymentEvent } from '@conversa/functions/contracts/billing';
import { type InfiniteData, useQueryClient } from '@tanstack/react-query';
import { authKeys } from '../../../lib/auth/session-api.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { invoiceKeys } from '../api/invoices.ts';

/**
 * `company-{id}-payment` (SPEC 7): a CONCLUIDA payment renews the licence. The invoices and the session
 * (whose company carries the due date every guard reads) are refetched, then `onPaid` tells the page.
 */
export function usePaymentLive(companyId: number | undefined, onPaid: (event: PaymentEvent) => void): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<PaymentEvent>(companyId ? channels.payment(companyId) : undefined, (event) => {
    if (event?.action !== 'CONCLUIDA') return;
    // The paid invoice shows as paid at once; the refetch then brings whatever else changed.
    queryClient.setQueriesData<InfiniteData<InvoicePage>>({ queryKey: invoiceKeys.all }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              records: page.records.map((invoice) => (invoice.id === event.invoice.id ? event.invoice : invoice)),
            })),
          }
        : data,
    );
    invalidateOnce(queryClient, invoiceKeys.all, authKeys.all);
    onPaid(event);
  });
}
