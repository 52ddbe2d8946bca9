import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from '../components/toaster.tsx';
import { AuthProvider, useAuth } from '../lib/auth/auth-provider.tsx';
import { queryRetryDelay, shouldRetryQuery } from '../lib/query-retry.ts';
import { RealtimeProvider } from '../lib/realtime/realtime-provider.tsx';
import { ColorModeProvider } from '../theme/color-mode.tsx';
import { RealtimeBridge } from './realtime-bridge.tsx';
import { FullPageLoader } from './routes/guards.tsx';
import { router } from './routes/router.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The one retry rule of every query (lib/query-retry.ts): transient failures only, backing off.
      retry: shouldRetryQuery,
      retryDelay: (attempt) => queryRetryDelay(attempt),
      refetchOnWindowFocus: false,
    },
  },
});

/** The socket follows the signed-in user: recreated when the company or user changes. */
function SessionRealtime() {
  const { user, status } = useAuth();
  const sessionKey = status === 'signedIn' && user ? `${user.companyId}:${user.id}` : undefined;
  return (
    <RealtimeProvider sessionKey={sessionKey}>
      <RealtimeBridge />
      <RouterProvider router={router} />
    </RealtimeProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <Suspense fallback={<FullPageLoader />}>
          <AuthProvider>
            <SessionRealtime />
          </AuthProvider>
        </Suspense>
        <Toaster />
      </ColorModeProvider>
    </QueryClientProvider>
  );
}
