/**
 * Page-number pagination over a tenant-bounded list (a company's users, the platform's companies):
 * these lists are small enough to read whole, filter and sort in memory, which also lets the search
 * match anywhere in a name, case- and accent-insensitively, as the spec's list searches do.
 */
export const PAGE_SIZE = 20;

export function normaliseForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/** True when `searchParam` is empty or found in any of `fields`. */
export function matchesSearch(searchParam: string, fields: Array<string | null | undefined>): boolean {
  const needle = normaliseForSearch(searchParam);
  if (!needle) return true;
  return fields.some((field) => field != null && normaliseForSearch(field).includes(needle));
}

export function pageOf<T>(items: T[], pageNumber: number, pageSize = PAGE_SIZE): { items: T[]; hasMore: boolean } {
  const start = (Math.max(1, pageNumber) - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), hasMore: items.length > start + pageSize };
}

export const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name, 'es', { sensitivity: 'base' });
