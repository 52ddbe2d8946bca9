import type { Setting } from '@conversa/functions/contracts';
import { settingKeys as keys, type SettingKey, settingDefaults, superOnlySettingKeys } from '@conversa/functions/contracts/setting-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { authKeys } from '../../../lib/auth/session-api.ts';

/** The company's settings; `company-{id}-settings` (src/app/realtime-bridge.tsx) invalidates `all`. */
export const settingKeys = {
  all: ['settings'] as const,
};

/** GET /settings: the company's key/value list; keys never stored fall back to the contract defaults. */
export const fetchSettings = async (): Promise<Record<SettingKey, string>> => {
  const list = await api<Setting[]>('/settings');
  const values: Record<string, string> = { ...settingDefaults };
  for (const { key, value } of list) values[key] = value;
  return values as Record<SettingKey, string>;
};
export const settingsQueryOptions = () => queryOptions({ queryKey: settingKeys.all, queryFn: fetchSettings });
export const useSettings = () => useQuery(settingsQueryOptions());

/** The keys the Options tab shows: the platform's own (the Asaas key) to super users only, as the API does. */
export const shownSettingKeys = (user: { super: boolean } | undefined): SettingKey[] =>
  keys.filter((key) => Boolean(user?.super) || !superOnlySettingKeys.has(key));

/** PUT /settings/{key} (admin). */
export const updateSetting = (key: SettingKey, value: string) => api<Setting>(`/settings/${key}`, { method: 'PUT', body: { key, value } });

export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: string }) => updateSetting(key, value),
    onSuccess: (_saved, { key, value }) => {
      queryClient.setQueryData(settingKeys.all, (old: Record<SettingKey, string> | undefined) => (old ? { ...old, [key]: value } : old));
      // The session user carries the company's settings too.
      return queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}
