import type { PlanFlag } from '@conversa/functions/contracts';
import { Box } from '@mui/material';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Spinner } from '../../components/spinner.tsx';
import { isAdmin, useAuth } from '../../lib/auth/auth-provider.tsx';
import { useCompanyPlan } from '../../lib/auth/session-api.ts';
import { isCshowSet, storageKeys, writeStorage } from '../../lib/storage.ts';
import { DENIAL_REDIRECT_MS, toast } from '../../lib/toast.ts';

export function FullPageLoader() {
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} role="progressbar" aria-busy="true">
      <Spinner />
    </Box>
  );
}

/** SPEC 2: an authenticated user on a public route goes to / (and right after signing in, to /tickets). */
export function PublicOnly() {
  const { status, freshSignIn } = useAuth();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signedIn') return <Navigate to={freshSignIn ? '/tickets' : '/'} replace />;
  return <Outlet />;
}

/** SPEC 2: an unauthenticated user on a private route goes to /login. */
export function PrivateOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** Non-admins land on their inbox instead (the dashboard and admin pages are admin only, SPEC 6). */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!isAdmin(user)) return <Navigate to="/tickets" replace />;
  return children;
}

/** Shows the denial toast once, then leaves for / after 1 s (SPEC 6). */
function DenyAndRedirect({ message }: { message: string }) {
  const navigate = useNavigate();
  // A ref, not state: re-rendering must neither repeat the toast nor cancel the pending redirect.
  const toasted = useRef(false);
  useEffect(() => {
    if (!toasted.current) {
      toasted.current = true;
      toast.error(message);
    }
    const timer = setTimeout(() => navigate('/', { replace: true }), DENIAL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [message, navigate]);
  return <FullPageLoader />;
}

export function SuperOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { t } = useTranslation();
  if (!user?.super) return <DenyAndRedirect message={t('guards.superOnly')} />;
  return children;
}

/** Plan feature flags gate routes in the browser too; the API enforces them regardless. */
export function PlanGate({ flag, children }: { flag: PlanFlag; children: ReactNode }) {
  const { user } = useAuth();
  const { t } = useTranslation();
  const plan = useCompanyPlan(user?.companyId);
  if (plan.isPending) return <FullPageLoader />;
  if (!plan.data?.[flag]) return <DenyAndRedirect message={t('guards.planDenied')} />;
  return children;
}

/**
 * SPEC 2: the campaign and contact-list routes exist only while the cshow flag is stored. A plan
 * with campaigns sets it (as the spec's client does), so a first visit straight to /campaigns on a
 * fresh browser opens the page instead of bouncing to the dashboard.
 */
export function CshowGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const plan = useCompanyPlan(user?.companyId);
  if (isCshowSet()) return children;
  if (plan.isPending) return <FullPageLoader />;
  if (!plan.data?.useCampaigns) return <Navigate to="/" replace />;
  return <CshowFromPlan>{children}</CshowFromPlan>;
}

function CshowFromPlan({ children }: { children: ReactNode }) {
  useEffect(() => writeStorage(storageKeys.cshow, 'true'), []);
  return children;
}
