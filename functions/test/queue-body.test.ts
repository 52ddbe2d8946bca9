/**
 * Queue bodies (contracts/queue-body.ts): whatever text an event or a command carries, the body is
 * one SQS accepts, and it reads back as written; only a lone surrogate, which no UTF-8 system can
 * carry, comes back as U+FFFD.
 */
import { describe, expect, it } from 'vitest';
import { decodeQueueBody, encodeQueueBody, wellFormedText } from '../src/contracts/queue-body.ts';

/** SQS's rule (SendMessage, MessageBody): anything outside this list is refused with InvalidMessageContents. */
const SQS_REFUSES = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const texts = {
  emoji: 'Oi 😀👍🏽 👨‍👩‍👧',
  rtl: 'مرحبا بك — שלום עולם',
  nul: 'a\u0000b',
  controls: '\u0001\u0008\u000B\u000C\u001F\u007F',
  nonCharacters: 'x\uFFFE\uFFFFy',
  escapesAsText: 'a literal \\ufffe and \\u0000 stay text',
};

describe('queue bodies', () => {
  it('are always bodies SQS accepts, and read back exactly as written', () => {
    for (const [name, text] of Object.entries(texts)) {
      const value = { kind: 'send', body: text, nested: [{ caption: text }] };
      const body = encodeQueueBody(value);
      expect(SQS_REFUSES.test(body), name).toBe(false);
      expect(decodeQueueBody(body), name).toEqual(value);
    }
  });

  it('turn lone surrogates into U+FFFD, keeping whole pairs', () => {
    const body = encodeQueueBody({ body: 'a\uD83Db\uDE00c😀\uD83D' });
    expect(SQS_REFUSES.test(body)).toBe(false);
    expect(decodeQueueBody(body)).toEqual({ body: 'a\uFFFDb\uFFFDc😀\uFFFD' });
    expect(wellFormedText('\uDE00\uD83D\uDE00\uD83D')).toBe('\uFFFD😀\uFFFD');
  });
});
