import { APP_VERSION } from '@conversa/functions/contracts/version';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';

export const versionKeys = {
  server: () => ['version'] as const,
};

/** GET /version (public): the server's version, shown beside the web app's. */
export const fetchServerVersion = async (): Promise<string> => {
  const data = await api<{ version?: string } | string>('/version', { anonymous: true });
  return typeof data === 'string' ? data : (data.version ?? '');
};
export const serverVersionQueryOptions = () =>
  queryOptions({ queryKey: versionKeys.server(), queryFn: fetchServerVersion, staleTime: Number.POSITIVE_INFINITY });
export const useServerVersion = () => useQuery(serverVersionQueryOptions());

export { APP_VERSION };
