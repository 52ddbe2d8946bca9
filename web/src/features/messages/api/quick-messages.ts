import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface QuickMessageOption {
  id?: number;
  shortcode: string;
  message: string;
  /** The attachment's `/public/...` route when the quick reply carries a file. */
  mediaPath?: string | null;
  isMedia?: boolean;
  mediaName?: string | null;
}

/**
 * GET /quick-messages/list (SPEC 7): the user's quick replies for the '/' shortcut. While that API
 * is not deployed the call fails once and the suggestions stay hidden.
 */
export const useQuickMessages = (companyId: number | undefined, userId: number | undefined) =>
  useQuery({
    queryKey: ['quickMessages', 'list', companyId, userId] as const,
    queryFn: () => api<QuickMessageOption[]>('/quick-messages/list', { query: { companyId, userId } }),
    enabled: Boolean(companyId && userId),
    retry: false,
    staleTime: 60_000,
  });

/** SPEC 2: suggestions open when the input starts with '/' and is longer than 1 char. */
export function matchQuickMessages(options: QuickMessageOption[] | undefined, input: string): QuickMessageOption[] {
  if (!options || !input.startsWith('/') || input.length <= 1) return [];
  const term = input.slice(1).toLowerCase();
  return options.filter((option) => option.shortcode.toLowerCase().includes(term) || option.message.toLowerCase().includes(term));
}

/** SPEC 2: the label is cut at 35 characters. */
export const quickMessageLabel = (option: QuickMessageOption) => {
  const label = `${option.shortcode} - ${option.message}`;
  return label.length > 35 ? `${label.slice(0, 35)}...` : label;
};
