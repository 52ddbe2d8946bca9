/**
 * Lambda's event filtering (the event source mapping's FilterCriteria) for the local stream
 * pollers: a record that matches any pattern is delivered. Within a pattern every key must match;
 * an object goes one level down into the record, an array lists a leaf's alternatives. Only the
 * subset our declarations use is implemented: exact strings, numbers, booleans and null, `prefix`
 * and `exists`. Any other operator throws when the patterns are compiled, so a declaration that
 * starts using one fails locally instead of letting every record through (or none).
 *
 * As in Lambda, `exists` looks at leaves only: `{exists: true}` on a map (an `M` of DynamoDB JSON)
 * does not match, and `{exists: false}` matches a field whose parents are missing too.
 */

type Alternative = (record: unknown) => boolean;

/** Compiles the patterns once (throwing on what they cannot say); the predicate then runs per record. */
export function compileFilters(patterns: readonly Record<string, unknown>[]): (record: unknown) => boolean {
  const compiled = patterns.map((pattern, index) => compileObject(pattern, `filters[${index}]`));
  // No patterns at all: Lambda delivers every record.
  if (!compiled.length) return () => true;
  return (record) => compiled.some((matches) => matches(record));
}

function compileObject(pattern: unknown, path: string): Alternative {
  if (!isPlainObject(pattern)) throw new Error(`${path}: a filter pattern is an object of fields, not ${JSON.stringify(pattern)}`);
  const fields = Object.entries(pattern).map(([key, rule]): Alternative => {
    const at = `${path}.${key}`;
    const child = (value: unknown) => (isPlainObject(value) ? value[key] : undefined);
    if (Array.isArray(rule)) {
      const leaf = compileLeaf(rule, at);
      return (value) => leaf(child(value));
    }
    const nested = compileObject(rule, at);
    return (value) => nested(child(value));
  });
  return (value) => fields.every((matches) => matches(value));
}

function compileLeaf(alternatives: unknown[], path: string): Alternative {
  const compiled = alternatives.map((alternative, index) => compileAlternative(alternative, `${path}[${index}]`));
  return (value) => compiled.some((matches) => matches(value));
}

function compileAlternative(alternative: unknown, path: string): Alternative {
  if (alternative === null || typeof alternative === 'string' || typeof alternative === 'number' || typeof alternative === 'boolean')
    return (value) => anyElement(value, (element) => element === alternative);
  if (!isPlainObject(alternative)) throw new Error(`${path}: ${JSON.stringify(alternative)} is neither a value nor an operator`);
  const entries = Object.entries(alternative);
  const [operator, operand] = entries[0] ?? [];
  if (entries.length !== 1) throw new Error(`${path}: an operator object has exactly one key, got ${JSON.stringify(alternative)}`);
  if (operator === 'prefix' && typeof operand === 'string')
    return (value) => anyElement(value, (element) => typeof element === 'string' && element.startsWith(operand));
  if (operator === 'exists' && typeof operand === 'boolean')
    return (value) => (operand ? value !== undefined && !isPlainObject(value) : value === undefined);
  throw new Error(`${path}: the local event filter does not implement ${JSON.stringify(alternative)} (infra/local/event-filter.ts)`);
}

/** A field holding an array matches when one of its elements does (EventBridge's rule, which Lambda follows). */
function anyElement(value: unknown, matches: (element: unknown) => boolean): boolean {
  return Array.isArray(value) ? value.some(matches) : matches(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
