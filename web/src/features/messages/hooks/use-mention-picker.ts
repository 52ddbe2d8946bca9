import { type KeyboardEvent, type RefObject, useLayoutEffect, useState } from 'react';
import { useUserNames } from '../../../lib/lookups/users.ts';
import { type Colleague, insertMention, matchColleagues, mentionIdsIn, mentionQueryAt } from '../api/mentions.ts';
import { movedHighlight, suggestionKey } from '../api/suggestion-keys.ts';

interface MentionPickerInput {
  /** Mentions exist only in a private note (issue 22 §6); elsewhere the picker stays closed. */
  note: boolean;
  text: string;
  setText: (text: string) => void;
  textInput: RefObject<HTMLTextAreaElement | null>;
  /** The writer, never offered to themselves. */
  selfId: number | undefined;
  /** Colleagues picked before (a draft's): still mentioned while their name stays in the text. */
  initialPicked?: Colleague[];
}

/**
 * `@name` in a private note: where the caret is, the colleagues matching what follows the @, the
 * highlighted option, the @ whose list Escape closed, and the colleagues picked so far (a pick whose
 * name is later erased is not mentioned).
 */
export function useMentionPicker({ note, text, setText, textInput, selfId, initialPicked = [] }: MentionPickerInput) {
  const [picked, setPicked] = useState<Colleague[]>(initialPicked);
  const [caret, setCaret] = useState(0);
  const [highlight, setHighlight] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  /**
   * Where the last pick leaves the caret: placed as its text is committed, before the next key is
   * read (a caret moved a task later sent keys typed meanwhile before the name).
   */
  const [placed, setPlaced] = useState<{ at: number } | null>(null);
  useLayoutEffect(() => {
    if (!placed) return;
    textInput.current?.focus();
    textInput.current?.setSelectionRange(placed.at, placed.at);
  }, [placed, textInput]);
  const colleagues = useUserNames(note);
  const at = note ? mentionQueryAt(text, caret) : null;
  const open = at !== null && at.start !== dismissedAt;
  const options = open ? matchColleagues(colleagues.data, at.query, selfId) : [];
  const selected = Math.min(highlight, options.length - 1);

  const pick = (colleague: Colleague) => {
    if (!at) return;
    const next = insertMention(text, at.start, caret, colleague.name);
    setText(next.text);
    setCaret(next.caret);
    setHighlight(0);
    setPicked((current) => [...current.filter((c) => c.id !== colleague.id), colleague]);
    setPlaced({ at: next.caret });
  };

  /** The arrows, Enter or Tab and Escape while the list shows options; true when the key was the picker's. */
  const handleKey = (event: KeyboardEvent): boolean =>
    suggestionKey(event, options.length, {
      move: (step) => setHighlight(movedHighlight(selected, step, options.length)),
      pick: () => {
        const chosen = options[selected];
        if (chosen) pick(chosen);
      },
      close: () => setDismissedAt(at?.start ?? null),
    });

  return {
    picked,
    open,
    options,
    selected,
    pick,
    handleKey,
    /** After typing: the caret moved and the list starts again at its first option. */
    onTyped: (caretAt: number) => {
      setCaret(caretAt);
      setHighlight(0);
    },
    trackCaret: () => setCaret(textInput.current?.selectionStart ?? text.length),
    /** The picked colleagues still named in `raw` (none outside a note). */
    mentionedIn: (raw: string) => (note ? picked.filter((c) => mentionIdsIn(raw, picked).includes(c.id)) : []),
    /** The note went out: its picks are spent. */
    reset: () => setPicked([]),
  };
}
