import { type KeyboardEvent, useState } from 'react';
import type { QuickMessageOption } from '../../../lib/lookups/quick-messages.ts';
import { matchQuickMessages } from '../api/quick-messages.ts';
import { movedHighlight, suggestionKey } from '../api/suggestion-keys.ts';

interface QuickReplyPickerInput {
  /** The user's quick replies (lib/lookups/quick-messages.ts). */
  replies: QuickMessageOption[] | undefined;
  text: string;
  /** Closed while another list (a note's mentions) has the keys. */
  enabled: boolean;
  /** A note is text only: replies with a file are not offered. */
  textOnly: boolean;
  onPick: (option: QuickMessageOption) => void;
}

/**
 * The `/` quick replies (SPEC 2): the options matching what follows the slash, the highlighted one
 * (the first as the text changes), and the text whose list Escape closed (typing on opens it again).
 */
export function useQuickReplyPicker({ replies, text, enabled, textOnly, onPick }: QuickReplyPickerInput) {
  const [highlight, setHighlight] = useState({ text, index: 0 });
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const matching = enabled && closedFor !== text ? matchQuickMessages(replies, text) : [];
  const options = textOnly ? matching.filter((option) => !option.mediaPath) : matching;
  // A new text starts the list again at its first option.
  const index = highlight.text === text ? highlight.index : 0;
  const selected = Math.min(index, options.length - 1);

  const pick = (option: QuickMessageOption) => {
    setHighlight({ text, index: 0 });
    onPick(option);
  };

  const handleKey = (event: KeyboardEvent): boolean =>
    suggestionKey(event, options.length, {
      move: (step) => setHighlight({ text, index: movedHighlight(selected, step, options.length) }),
      pick: () => {
        const chosen = options[selected];
        if (chosen) pick(chosen);
      },
      close: () => setClosedFor(text),
    });

  return { options, selected, pick, handleKey };
}
