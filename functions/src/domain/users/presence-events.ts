/**
 * Hook points of presence (issue 22 §1 -> §2). Presence calls `onUserAvailable` when a user's presence
 * becomes `online` (a socket connected, or a tab came back from away), after the change was recorded
 * and announced on `company-{id}-presence`. Automatic assignment fills it in: an attendant coming online
 * frees capacity, so the oldest waiting ticket of their queues may go to them.
 *
 * The realtime Lambda sets it to routeForUserSafely (domain/tickets/auto-assign.ts): the oldest
 * waiting tickets of the user's automatic queues go to them while they have room, bounded per run,
 * inside $connect / userStatus, never throwing. It is set there rather than imported here so that a
 * Lambda that only reads presence (the dashboard's) does not bundle the router and its sends.
 */

export type UserAvailableListener = (companyId: number, userId: number) => Promise<void>;

let listener: UserAvailableListener | undefined;

/** Sets (or, with undefined, clears) what runs when a user becomes available. */
export function setUserAvailableListener(next: UserAvailableListener | undefined): void {
  listener = next;
}

/** A user's presence just became `online`. */
export async function onUserAvailable(companyId: number, userId: number): Promise<void> {
  if (listener) await listener(companyId, userId);
}
