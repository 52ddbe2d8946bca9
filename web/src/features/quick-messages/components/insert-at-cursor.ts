/** The text with `snippet` in place of the selection [start, end), and where the caret goes after it. */
export function insertAt(text: string, snippet: string, start: number, end: number): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + snippet + text.slice(to), caret: from + snippet.length };
}
