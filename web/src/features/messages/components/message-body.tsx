import { Link } from '@mui/material';
import type { ReactNode } from 'react';

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

export function MessageBody({ text }: { text: string }) {
  return <>{formatMessage(text)}</>;
}
