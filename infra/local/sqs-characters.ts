/**
 * SQS's rule for message bodies, restored in fauxqs. SQS accepts #x9 | #xA | #xD | #x20 to #xD7FF |
 * #xE000 to #xFFFD | #x10000 to #x10FFFF and refuses anything else with InvalidMessageContents.
 * fauxqs 1.9.2 checks the body against that list without its last range, one UTF-16 unit at a time,
 * so it refuses every emoji (😀, 👍) and every other character above U+FFFF that AWS accepts: a reply
 * with an emoji answered 500 locally and a contact's emoji never reached the inbox.
 *
 * Its check is one module-level RegExp (dist/sqs/sqsTypes.js, INVALID_MESSAGE_BODY_CHAR) shared by
 * SendMessage and SendMessageBatch. It is recompiled here, in place, to SQS's full rule read by code
 * point (the `u` flag): a surrogate pair is one astral character and passes, a lone surrogate is not
 * a character and is refused, as SQS refuses it. Nothing else of fauxqs changes: it still stores the
 * body as sent, counts its size in UTF-8 bytes and computes MD5OfMessageBody over its UTF-8 bytes,
 * as AWS does. Only the text of its error message still omits the last range.
 *
 * Recompiling rather than escaping bodies in a proxy keeps the size limit exact (an escaped emoji
 * would be longer than its 4 bytes). If a fauxqs upgrade moves the check, `fixSqsBodyCharacters`
 * throws at start-up instead of letting the stack run with the wrong rule.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** SQS's own list (SendMessage, MessageBody), as a character class read by code point. */
export const SQS_INVALID_BODY_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** What the fixed check must say: accepted and refused samples from both edges of every range. */
const ACCEPTED = ['\t\n\r \uD7FF\uE000\uFFFD', '😀', '\u{10FFFF}', 'مرحبا שלום'];
const REFUSED = ['\u0000', '\u001F', '\uD83D', '\uDE00', 'a\uD83Db', '\uFFFE', '\uFFFF'];

export function acceptsLikeSqs(check: RegExp): boolean {
  return ACCEPTED.every((text) => !check.test(text)) && REFUSED.every((text) => check.test(text));
}

let fixed: Promise<void> | undefined;

/** Idempotent; call before fauxqs answers its first SendMessage. */
export function fixSqsBodyCharacters(): Promise<void> {
  fixed ??= (async () => {
    // Not in fauxqs's exports map: reached by file, the very module its send actions import.
    const types = (await import(pathToFileURL(join(fauxqsDir(), 'dist', 'sqs', 'sqsTypes.js')).href)) as {
      INVALID_MESSAGE_BODY_CHAR?: unknown;
    };
    const check = types.INVALID_MESSAGE_BODY_CHAR;
    if (!(check instanceof RegExp))
      throw new Error('fauxqs: INVALID_MESSAGE_BODY_CHAR not found; the local SQS body check cannot be fixed');
    // RegExp#compile (Annex B, kept by every engine) is the one way to change a RegExp another module holds.
    check.compile(SQS_INVALID_BODY_CHARACTER.source, SQS_INVALID_BODY_CHARACTER.flags);
    if (!acceptsLikeSqs(check)) throw new Error("fauxqs: its body check still differs from SQS's after the fix");
  })();
  return fixed;
}

/** fauxqs's package folder, found as Node would (its exports map answers `import` only, not require.resolve). */
function fauxqsDir(): string {
  const paths = createRequire(import.meta.url).resolve.paths('fauxqs') ?? [];
  const dir = paths.map((base) => join(base, 'fauxqs')).find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!dir) throw new Error('fauxqs: package not found from infra/local');
  return dir;
}
