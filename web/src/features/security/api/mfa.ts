import type { MfaSetupResponse, MfaVerifyResponse } from '@conversa/functions/contracts/mfa';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /auth/mfa: whether the second factor is on, and whether the company requires it of this user. */
export interface MfaStatus {
  enabled: boolean;
  required: boolean;
}

export const mfaKeys = { status: () => ['mfa', 'status'] as const };

export const mfaStatusQueryOptions = () =>
  queryOptions({ queryKey: mfaKeys.status(), queryFn: () => api<MfaStatus>('/auth/mfa'), staleTime: 60_000 });

export const useMfaStatus = (enabled = true) => useQuery({ ...mfaStatusQueryOptions(), enabled });

export const useMfaSetup = () => useMutation({ mutationFn: () => api<MfaSetupResponse>('/auth/mfa/setup', { method: 'POST' }) });

/** Verify turns the factor on: the status is read again only once the recovery codes were seen (onDone). */
export const useMfaVerify = () =>
  useMutation({ mutationFn: (code: string) => api<MfaVerifyResponse>('/auth/mfa/verify', { method: 'POST', body: { code } }) });

export function useMfaDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<unknown>('/auth/mfa', { method: 'DELETE', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mfaKeys.status() }),
  });
}
