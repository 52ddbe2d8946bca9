/**
 * An entry's `changes`: the before and after of each field that changed, with every secret masked
 * (issue 21 §3: passwords, API keys, voice keys, tokens and secrets are never in clear, not even in
 * the trail that records who changed them).
 */
import type { AuditChange } from '#contracts/audit';
import { MASKED } from '#contracts/audit-mask';

/** Field names whose values are secrets, at any depth (a Dialogflow JSON key holds `private_key`). */
const SECRET_FIELD = /pass(word)?|api_?key|voice_?key|token|secret|private_?key|credential|json_?content/i;

/** A value as the trail keeps it: a secret field's value is masked, recursively. */
export function maskSecrets(value: unknown, field = ''): unknown {
  if (value === null || value === undefined || value === '') return value ?? null;
  if (SECRET_FIELD.test(field)) return MASKED;
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item));
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, maskSecrets(inner, key)]));
  }
  return value;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields of `before`/`after` that differ (a create has no before, a delete no after), limited
 * to `fields` when given. Timestamps and bookkeeping a reader does not act on are left out.
 */
export function changesOf(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  fields?: readonly string[],
): Record<string, AuditChange> {
  const keys = fields ?? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((key) => !IGNORED.has(key));
  const changes: Record<string, AuditChange> = {};
  for (const key of keys) {
    const from = before?.[key];
    const to = after?.[key];
    if (same(from, to)) continue;
    changes[key] = { from: maskSecrets(from ?? null, key), to: maskSecrets(to ?? null, key) };
  }
  return changes;
}

const IGNORED = new Set(['createdAt', 'updatedAt', 'companyId', 'revision', 'version', 'cognitoSub', 'sessionIat', 'sessionJti']);
