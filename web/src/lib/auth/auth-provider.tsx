import type { LoginResponse, SessionUser } from '@conversa/functions/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { signOut as amplifySignOut } from 'aws-amplify/auth';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { isCompanyExpired } from '../../features/billing/components/billing-dates.ts';
import { ApiError, setCompanyExpiredHandler, setUnauthorizedHandler } from '../api-client.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { removeStorage, storageKeys } from '../storage.ts';
import { useApiErrorMessage } from '../use-api-error.ts';
import { storeSignInTokens } from './amplify.ts';
import { fetchMe, logoutSession, meQueryOptions, passMfaChallenge, passwordLogin } from './session-api.ts';
import { forgetSignOutReason, rememberSignOutReason } from './sign-out-reason.ts';
import { currentIdToken } from './tokens.ts';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface SignInResult {
  user: SessionUser;
  /** Days before the company's due date, when fewer than 5 remain (SPEC 5 "Login"). */
  dueDateWarningDays?: number;
}

/** The password was right and the user has a second factor: the sign-in waits for its code (issue 21). */
export interface MfaPending {
  mfaChallenge: string;
}

interface AuthValue {
  status: AuthStatus;
  user: SessionUser | undefined;
  /** True once a sign-in happened in this page: SPEC 2 sends a fresh login to /tickets, a returning one to /. */
  freshSignIn: boolean;
  signIn: (email: string, password: string) => Promise<SignInResult | MfaPending>;
  /** The second factor's code for the pending sign-in; a wrong code throws and the challenge stays. */
  completeSignIn: (challenge: string, code: string) => Promise<SignInResult>;
  signOut: () => Promise<void>;
}

const AuthContext = createContext<AuthValue | undefined>(undefined);

const DAY_MS = 86_400_000;
function daysUntil(dueDate: string | null | undefined): number | undefined {
  if (!dueDate) return undefined;
  const due = Date.parse(`${dueDate.slice(0, 10)}T23:59:59`);
  return Number.isNaN(due) ? undefined : Math.floor((due - Date.now()) / DAY_MS);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // undefined while we look for a stored Amplify session at start.
  const [hasSession, setHasSession] = useState<boolean | undefined>(undefined);
  const me = useQuery({ ...meQueryOptions(), enabled: hasSession === true });
  const [freshSignIn, setFreshSignIn] = useState(false);

  useEffect(() => {
    currentIdToken().then((token) => setHasSession(Boolean(token)));
  }, []);

  const endLocalSession = useCallback(async () => {
    await amplifySignOut().catch(() => undefined);
    queryClient.clear();
    setHasSession(false);
  }, [queryClient]);

  useEffect(() => {
    // SPEC 4: a 401 clears the session; the route guards then send the user to /login.
    setUnauthorizedHandler(() => {
      void endLocalSession();
    });
  }, [endLocalSession]);

  // The session as the 402 handler finds it when an answer comes back (not when it was registered).
  const current = useRef({ hasSession, user: me.data });
  current.current = { hasSession, user: me.data };
  const errorText = useApiErrorMessage();
  useEffect(() => {
    // SPEC 5: the company's due date passed. A plain user cannot pay, so the session ends with the
    // expiry message (the login page shows it), whether the app was open or comes back with a stored
    // session (GET /auth/me answers 402). An admin stays, confined to billing once `me` says so
    // (ExpiredGate). A sign-in in progress reports its own 402 (signIn throws it to the login page).
    setCompanyExpiredHandler((error) => {
      const { hasSession: signedIn, user } = current.current;
      if (!signedIn) return;
      if (user && isAdmin(user)) {
        if (!isCompanyExpired(user)) invalidateOnce(queryClient, meQueryOptions().queryKey);
        return;
      }
      current.current = { hasSession: false, user: undefined };
      // Said on the login page until read (a toast was gone in 3 s).
      rememberSignOutReason({ text: errorText(error) });
      void endLocalSession();
    });
  }, [endLocalSession, errorText, queryClient]);

  /** The login's answer (or the passed challenge's) becomes the app's session, its tokens Amplify's. */
  const startSession = useCallback(
    async (claim: Partial<LoginResponse>, email: string): Promise<SignInResult> => {
      if (!claim.token || !claim.accessToken || !claim.refreshToken) throw new Error('the sign-in answered no tokens');
      await storeSignInTokens({ idToken: claim.token, accessToken: claim.accessToken, refreshToken: claim.refreshToken }, email);
      const user = claim.user ?? (await fetchMe());
      queryClient.setQueryData(meQueryOptions().queryKey, user);
      forgetSignOutReason();
      setFreshSignIn(true);
      setHasSession(true);
      const days = claim.dueDateWarning?.days ?? daysUntil(user.company?.dueDate);
      return { user, dueDateWarningDays: days !== undefined && days >= 0 && days < 5 ? days : undefined };
    },
    [queryClient],
  );

  /** The email of the sign-in waiting for its second factor (Amplify's store names the sign-in by it). */
  const pendingEmail = useRef('');

  const signIn = useCallback(
    async (email: string, password: string): Promise<SignInResult | MfaPending> => {
      // A stale session in storage must not outlive a new sign-in.
      await amplifySignOut().catch(() => undefined);
      try {
        // Through our API, not straight to Cognito (issue 21): a wrong password is counted and audited there.
        const claim = await passwordLogin(email, password);
        // No session yet: the login page asks for the code.
        if (claim.mfaRequired && claim.challenge) {
          pendingEmail.current = email;
          return { mfaChallenge: claim.challenge };
        }
        return await startSession(claim, email);
      } catch (error) {
        // An expired company (402) or a refused sign-in must not leave a half-open session behind.
        await endLocalSession();
        throw error;
      }
    },
    [startSession, endLocalSession],
  );

  const completeSignIn = useCallback(
    async (challenge: string, code: string): Promise<SignInResult> => {
      try {
        return await startSession(await passMfaChallenge(challenge, code), pendingEmail.current);
      } catch (error) {
        // A wrong code leaves the challenge to try again; a spent or expired one ends the sign-in.
        if (!(error instanceof ApiError && error.code === 'ERR_MFA_INVALID_CODE')) await endLocalSession();
        throw error;
      }
    },
    [startSession, endLocalSession],
  );

  const signOut = useCallback(async () => {
    // What the user typed to customers and did not send is not left on a computer they signed out of.
    removeStorage(storageKeys.drafts);
    await logoutSession().catch(() => undefined);
    await endLocalSession();
  }, [endLocalSession]);

  const status: AuthStatus = hasSession === false ? 'signedOut' : hasSession && me.data ? 'signedIn' : me.isError ? 'signedOut' : 'loading';

  const value = useMemo<AuthValue>(
    () => ({ status, user: me.data, freshSignIn, signIn, completeSignIn, signOut }),
    [status, me.data, freshSignIn, signIn, completeSignIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

export function isAdmin(user: SessionUser | undefined): boolean {
  return user?.profile === 'admin' || Boolean(user?.super);
}

/** SPEC 5/6: admins and supervisors set a tag's kanban flag, so only they add or remove the board's lanes (the server checks it too). */
export function managesKanbanLanes(user: SessionUser | undefined): boolean {
  return isAdmin(user) || (user?.profile as string | undefined) === 'supervisor';
}
