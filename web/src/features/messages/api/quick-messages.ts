import type { QuickMessageOption } from '../../../lib/lookups/quick-messages.ts';

/*
 * The '/' shortcut's rules over the user's quick replies (read with useQuickMessageOptions from
 * lib/lookups/quick-messages.ts, the cache the Quick messages screen and realtime keep).
 */

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
