/**
 * A FIFO batch's records by message group, each group's in arrival order (a record without a group,
 * from a standard queue, is a group of its own): consumers run groups concurrently, a group in order.
 */
export function byMessageGroup<T>(
  items: readonly T[],
  recordOf: (item: T) => { messageId: string; attributes?: { MessageGroupId?: string } },
): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const record = recordOf(item);
    const group = record.attributes?.MessageGroupId ?? record.messageId;
    const members = groups.get(group);
    if (members) members.push(item);
    else groups.set(group, [item]);
  }
  return [...groups.values()];
}
