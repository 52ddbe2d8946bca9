import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { isCompanyExpired } from './billing-dates.ts';

/** The screens an expired company may still open: paying is its way back in. */
export const BILLING_PATHS: readonly string[] = ['/financeiro', '/subscription'];

/**
 * An expired company's admin is sent to billing, not to screens whose every call answers 402 (the
 * server enforces it; this only spares the dead end). Once the payment renews the due date, the
 * refetched session lets everything through again.
 */
export function ExpiredGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (isCompanyExpired(user) && !BILLING_PATHS.includes(pathname)) return <Navigate to="/financeiro" replace />;
  return children;
}
