import { channels } from '@conversa/functions/contracts/channels';
import type { QueueIntegration } from '@conversa/functions/contracts/queue-integrations';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { isAdmin, useAuth } from '../auth/auth-provider.tsx';
import { useCompanyPlan } from '../auth/session-api.ts';
import { invalidateOnce } from '../realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../realtime/realtime-provider.tsx';

/**
 * The bots a queue or a connection may hand its conversations to (issue 13): the company's queue
 * integrations (GET /queueIntegration, every page) and AI prompts (GET /prompt). The Integrations
 * screen pages through `queueIntegrationKeys.page(search)`; the queue and connection dialogs read
 * `queueIntegrationKeys.choices()`. Both live under `queueIntegrationKeys.all`, so one invalidation
 * (a save, a `company-{id}-queueIntegration` event) reaches them all.
 */
export const queueIntegrationKeys = {
  all: ['queueIntegrations'] as const,
  pages: () => [...queueIntegrationKeys.all, 'page'] as const,
  page: (searchParam: string) => [...queueIntegrationKeys.pages(), searchParam] as const,
  choices: () => [...queueIntegrationKeys.all, 'choices'] as const,
};
/** Its own root: the Prompts screen (features/prompts) keeps its keys; the dialogs refetch these on open. */
export const promptChoiceKeys = {
  all: ['promptChoices'] as const,
  choices: () => [...promptChoiceKeys.all] as const,
};

export interface BotChoice {
  id: number;
  name: string;
  /** The integration's type (dialogflow, n8n, webhook, typebot); absent for prompts. */
  type?: string;
}

export interface QueueIntegrationsPage {
  queueIntegrations: QueueIntegration[];
  hasMore: boolean;
}

export const fetchQueueIntegrations = (searchParam: string, pageNumber: number) =>
  api<QueueIntegrationsPage>('/queueIntegration', { query: { searchParam, pageNumber } });

/** Every integration of the company (a handful; the pages are read until the last). */
async function fetchIntegrationChoices(): Promise<BotChoice[]> {
  const all: BotChoice[] = [];
  for (let page = 1; page <= 50; page++) {
    const { queueIntegrations, hasMore } = await fetchQueueIntegrations('', page);
    all.push(...queueIntegrations.map(({ id, name, type }) => ({ id, name, type })));
    if (!hasMore) break;
  }
  return all;
}

const fetchPromptChoices = async (): Promise<BotChoice[]> =>
  (await api<{ prompts: { id: number; name: string }[] }>('/prompt')).prompts.map(({ id, name }) => ({ id, name }));

/**
 * The choices, read only when the company's plan has the feature and the user is an admin (the
 * routes answer 403 otherwise): `undefined` when the select has nothing to offer.
 */
export function useBotChoices(): { integrations: BotChoice[] | undefined; prompts: BotChoice[] | undefined } {
  const { user } = useAuth();
  const plan = useCompanyPlan(user?.companyId).data;
  const admin = isAdmin(user);
  const withIntegrations = Boolean(admin && plan?.useIntegrations);
  const withPrompts = Boolean(admin && plan?.useOpenAi);
  const integrations = useQuery(
    queryOptions({ queryKey: queueIntegrationKeys.choices(), queryFn: fetchIntegrationChoices, enabled: withIntegrations }),
  );
  const prompts = useQuery(queryOptions({ queryKey: promptChoiceKeys.choices(), queryFn: fetchPromptChoices, enabled: withPrompts }));
  return {
    integrations: withIntegrations ? (integrations.data ?? []) : undefined,
    prompts: withPrompts ? (prompts.data ?? []) : undefined,
  };
}

export const refreshQueueIntegrations = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: queueIntegrationKeys.all });

/** `company-{id}-queueIntegration` (ids only): every screen showing integrations reads them again. */
export function useQueueIntegrationsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(companyId ? channels.queueIntegration(companyId) : undefined, () =>
    invalidateOnce(queryClient, queueIntegrationKeys.all),
  );
}
