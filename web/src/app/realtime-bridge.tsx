import type { AuthEventData } from '@conversa/functions/contracts';
import { channels } from '@conversa/functions/contracts/channels';
import { ENDED_SESSION_JTI, isSupersededSession } from '@conversa/functions/contracts/session';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isCompanyExpired } from '../features/billing/components/billing-dates.ts';
import { settingKeys } from '../features/settings/api/settings.ts';
import { isAdmin, useAuth } from '../lib/auth/auth-provider.tsx';
import { authKeys, useCompanyPlan } from '../lib/auth/session-api.ts';
import { rememberSignOutReason } from '../lib/auth/sign-out-reason.ts';
import { currentIdToken } from '../lib/auth/tokens.ts';
import { useChatsLive } from '../lib/lookups/chats.ts';
import { useConnectionsWatch } from '../lib/lookups/connections.ts';
import { useContactsLive } from '../lib/lookups/contacts.ts';
import { useQueuesLive } from '../lib/lookups/queues.ts';
import { useQuickMessagesLive } from '../lib/lookups/quick-messages.ts';
import { useTagsLive } from '../lib/lookups/tags.ts';
import { useUsersLive } from '../lib/lookups/users.ts';
import { invalidateOnce } from '../lib/realtime/invalidate-once.ts';
import { usePresenceReporter } from '../lib/realtime/presence-reporter.ts';
import { useRealtimeEvent } from '../lib/realtime/realtime-provider.tsx';
import { toast } from '../lib/toast.ts';

const KICK_RELOAD_MS = 1000;

/**
 * The app-wide realtime reactions. Events update the same query keys the screens read (the shared
 * lookups' key factories, lib/lookups), so a change made elsewhere shows up on every screen that
 * shows it without a reload.
 */
export function RealtimeBridge() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  // An expired company's admin is confined to billing (GET /whatsapp would answer 402).
  useConnectionsWatch(companyId, isAdmin(user) && !isCompanyExpired(user));
  useQueuesLive(companyId);
  useUsersLive(companyId);
  useContactsLive(companyId);
  useTagsLive(companyId);
  useQuickMessagesLive(companyId);
  useChatsLive(companyId, Boolean(useCompanyPlan(companyId).data?.useInternalChat));
  usePresenceReporter(Boolean(user));

  // SPEC 4: a sign-in elsewhere on this account ends this (older) session.
  useRealtimeEvent<Partial<AuthEventData>>(companyId ? channels.auth(companyId) : undefined, async (data) => {
    const token = await currentIdToken();
    if (!data?.sessionIat || !token?.issuedAt) return;
    if (
      !isSupersededSession(
        { issuedAt: token.issuedAt, jti: token.jti, originJti: token.originJti },
        { sessionIat: data.sessionIat, sessionJtis: data.sessionJti ? [data.sessionJti] : null, sessionOrigin: data.sessionOrigin ?? null },
      )
    )
      return;
    // Why, said on the login page after the reload until read (issue 25). A sign-out here or in
    // another tab ends the session too: no reason, just leave.
    if (data.reason === 'passwordChanged') rememberSignOutReason({ key: 'auth.passwordChanged' });
    else if (data.sessionJti !== ENDED_SESSION_JTI) {
      rememberSignOutReason({ key: 'auth.sessionElsewhere' });
      toast.warning(t('auth.sessionElsewhere'));
    }
    setTimeout(() => {
      window.localStorage.clear();
      window.location.reload();
    }, KICK_RELOAD_MS);
  });

  useRealtimeEvent(companyId ? channels.settings(companyId) : undefined, () => invalidateOnce(queryClient, settingKeys.all, authKeys.me()));

  return null;
}
