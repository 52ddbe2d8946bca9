/**
 * An item's size as DynamoDB counts it for write units (its attribute names and values in bytes:
 * strings in UTF-8, a number about one byte per two digits plus one, null and booleans one byte, a
 * map or list 3 bytes plus one per element; developerguide CapacityUnitCalculations.html). JSON
 * overstates it by its quotes, colons and commas: a ~850-byte ticket is ~1,100 bytes of JSON.
 */
function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') {
    const digits =
      String(Math.abs(value))
        .replace(/[.e+-]/g, '')
        .replace(/^0+/, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, entry) => sum + valueSize(entry) + 1, 0);
  if (value instanceof Set) return [...value].reduce((sum: number, entry) => sum + valueSize(entry), 0);
  return 3 + Object.entries(value as object).reduce((sum, [name, entry]) => sum + Buffer.byteLength(name) + valueSize(entry) + 1, 0);
}

export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
