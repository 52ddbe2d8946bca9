import { type Invoice, invoiceDisplayStatus, PAYMENT_REDIRECT_MS } from '@conversa/functions/contracts/billing';
import { Alert, Box, Button, Chip } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { authKeys } from '../../../lib/auth/session-api.ts';
import { formatMoney } from '../../../lib/money.ts';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useInvoicesPage } from '../api/invoices.ts';
import { usePaymentLive } from '../hooks/use-payment-live.ts';
import { isCompanyExpired, showDay, utcToday } from './billing-dates.ts';
import { SubscriptionWizard } from './subscription-wizard.tsx';

const statusColor = { paid: 'success', overdue: 'error', open: 'warning' } as const;
const phoneCells = { '& .MuiTableCell-root': { px: { xs: 0.5, sm: 2 } } };

/**
 * SPEC 2 "Invoices" (/financeiro) and 4 "Invoice": id, details, value, due date, status (Pago / Vencido /
 * Aberto), overdue unpaid rows tinted, Pay unless paid. A CONCLUIDA payment event shows the renewed
 * licence and returns home after 4 s.
 */
export function InvoicesPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const invoices = useInvoicesPage(searchParam);
  const [paying, setPaying] = useState<Invoice>();
  const [renewedOn, setRenewedOn] = useState<string>();
  usePaymentLive(user?.companyId, (event) => {
    setPaying(undefined);
    setRenewedOn(event.company.dueDate);
  });
  useEffect(() => {
    if (!renewedOn) return;
    const timer = setTimeout(() => navigate('/', { replace: true }), PAYMENT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [renewedOn, navigate]);

  const today = utcToday();
  const rows = invoices.data?.pages.flatMap((page) => page.records) ?? [];
  // A free plan's period is settled by the very call that lists it (its invoice is worth 0): the
  // CONCLUIDA may go out before this page's socket is open, so a paid invoice for the session's own
  // due date has the session read again, once, which lifts an expired company's gate.
  const queryClient = useQueryClient();
  const sessionRenewed = useRef(false);
  const sessionDue = user?.company?.dueDate?.slice(0, 10);
  const currentPaid = Boolean(sessionDue) && rows.some((invoice) => invoice.status === 'paid' && invoice.dueDate === sessionDue);
  useEffect(() => {
    if (!currentPaid || sessionRenewed.current) return;
    sessionRenewed.current = true;
    invalidateOnce(queryClient, authKeys.all);
  }, [currentPaid, queryClient]);
  // On a phone (issue 25) the table must fit the screen with its Pay button whole: the id and the
  // plan's name step aside (the value and due date identify the invoice) and the cells, headers
  // included, pad less (phoneCells below).
  const columns: Column<Invoice>[] = [
    { id: 'id', label: t('billing.fields.id'), hideBelow: 'sm', render: (invoice) => invoice.id },
    { id: 'detail', label: t('billing.fields.detail'), hideBelow: 'sm', render: (invoice) => invoice.detail || '-' },
    { id: 'value', label: t('billing.fields.value'), render: (invoice) => formatMoney(invoice.value) },
    { id: 'dueDate', label: t('billing.fields.dueDate'), render: (invoice) => showDay(invoice.dueDate) },
    {
      id: 'status',
      label: t('billing.fields.status'),
      render: (invoice) => {
        const status = invoiceDisplayStatus(invoice, today);
        return <Chip size="small" color={statusColor[status]} label={t(`billing.status.${status}`)} />;
      },
    },
    {
      id: 'action',
      label: t('billing.fields.action'),
      align: 'right',
      render: (invoice) =>
        invoice.status === 'paid' ? (
          <Chip size="small" variant="outlined" color="success" label={t('billing.paidLabel')} />
        ) : (
          <Button size="small" variant="contained" onClick={() => setPaying(invoice)} data-testid={`pay-invoice-${invoice.id}`}>
            {t('billing.pay')}
          </Button>
        ),
    },
  ];

  return (
    <>
      <PageHeader title={t('billing.title')} actions={<SearchField value={search} onChange={setSearch} />} />
      {renewedOn ? (
        <Alert severity="success" sx={{ mb: 2 }} data-testid="licence-renewed">
          {t('billing.renewed', { date: showDay(renewedOn) })}
        </Alert>
      ) : (
        isCompanyExpired(user) &&
        user?.company.dueDate && (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="billing-expired">
            {t('billing.expiredNotice', { date: showDay(user.company.dueDate) })}
          </Alert>
        )
      )}
      <Box sx={phoneCells}>
        <DataTable
          data-testid="invoices-table"
          columns={columns}
          rows={rows}
          rowKey={(invoice) => invoice.id}
          rowTestId={(invoice) => `invoice-${invoice.id}`}
          rowSx={(invoice) =>
            invoiceDisplayStatus(invoice, today) === 'overdue' ? (theme) => ({ bgcolor: alpha(theme.palette.error.main, 0.08) }) : undefined
          }
          pending={invoices.isPending}
          error={invoices.error}
          hasMore={invoices.hasNextPage}
          loadingMore={invoices.isFetchingNextPage}
          onLoadMore={() => void invoices.fetchNextPage()}
        />
      </Box>
      {paying && <SubscriptionWizard invoice={paying} onClose={() => setPaying(undefined)} />}
    </>
  );
}
