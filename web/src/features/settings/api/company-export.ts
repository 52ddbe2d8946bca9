import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/*
 * The company's own data (issue 21 §5): POST /companies/export queues a zip of everything the
 * company holds; GET /companies/export/{jobId} answers its status and, once done, a link valid an hour.
 */

export interface CompanyExportStatus {
  status: 'queued' | 'running' | 'done' | 'failed';
  url?: string;
}

export const companyExportKeys = {
  job: (jobId: string) => ['company-export', jobId] as const,
};

export const useRequestCompanyExport = () =>
  useMutation({ mutationFn: () => api<{ jobId: string }>('/companies/export', { method: 'POST' }) });

/** Polled every 3 s while the job is queued or running; stops once it is done or failed. */
export const useCompanyExport = (jobId: string | undefined) =>
  useQuery({
    queryKey: companyExportKeys.job(jobId ?? ''),
    queryFn: () => api<CompanyExportStatus>(`/companies/export/${jobId}`),
    enabled: Boolean(jobId),
    refetchInterval: (query) => (query.state.data?.status === 'done' || query.state.data?.status === 'failed' ? false : 3000),
  });
