import { Box, Link } from '@mui/material';
import { Fragment, type ReactNode } from 'react';

/*
 * SPEC 2 "Message markdown": *x* bold, ~x~ strikethrough (and WhatsApp's _x_ italic and ```x```
 * monospace); links open in a new tab. Only these few elements are produced, as React nodes: text
 * is never parsed as HTML, so a message cannot inject markup.
 */
const TOKEN =
  /(https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]])|(?<![\p{L}\p{N}*])\*([^*\n]+)\*(?![\p{L}\p{N}*])|(?<![\p{L}\p{N}~])~([^~\n]+)~(?![\p{L}\p{N}~])|(?<![\p{L}\p{N}_])_([^_\n]+)_(?![\p{L}\p{N}_])|```([^`]+)```/gu;

/** Only web links: `javascript:` and other schemes never become anchors. */
export function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function formatMessage(text: string, keyPrefix = 'm'): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (at > last) nodes.push(text.slice(last, at));
    const key = `${keyPrefix}-${index++}`;
    const [whole, url, bold, strike, italic, mono] = match;
    const href = url ? safeHref(url) : undefined;
    if (url && href) {
      nodes.push(
        <Link key={key} href={href} target="_blank" rel="noopener noreferrer" sx={{ wordBreak: 'break-all' }}>
          {url}
        </Link>,
      );
    } else if (bold !== undefined) nodes.push(<strong key={key}>{formatMessage(bold, key)}</strong>);
    else if (strike !== undefined) nodes.push(<del key={key}>{formatMessage(strike, key)}</del>);
    else if (italic !== undefined) nodes.push(<em key={key}>{formatMessage(italic, key)}</em>);
    else if (mono !== undefined) nodes.push(<code key={key}>{mono}</code>);
    else nodes.push(whole);
    last = at + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** `text` cut around each `@name` of `names` (longest first, so "@Ana Paula" wins over "@Ana"). */
export function splitMentions(text: string, names: readonly string[]): { text: string; mention: boolean; at: number }[] {
  const wanted = [...new Set(names.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (!wanted.length) return [{ text, mention: false, at: 0 }];
  const escaped = wanted.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts: { text: string; mention: boolean; at: number }[] = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(`@(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'gu'))) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at), mention: false, at: last });
    parts.push({ text: match[0], mention: true, at });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false, at: last });
  return parts;
}

/** A message's text; a note's `@name`s of the colleagues it mentions stand out (issue 22 §6). */
export function MessageBody({ text, mentions }: { text: string; mentions?: readonly string[] }) {
  if (!mentions?.length) return <>{formatMessage(text)}</>;
  return (
    <>
      {splitMentions(text, mentions).map((part) =>
        part.mention ? (
          <Box key={`at-${part.at}`} component="span" data-testid="mention" sx={{ fontWeight: 700, color: 'primary.dark' }}>
            {part.text}
          </Box>
        ) : (
          <Fragment key={`text-${part.at}`}>{formatMessage(part.text, `p${part.at}`)}</Fragment>
        ),
      )}
    </>
  );
}
