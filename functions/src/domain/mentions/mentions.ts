/**
 * The caller's mentions (issue 22 §6, contracts/mentions.ts): GET /mentions lists the newest, POST
 * /mentions/read `{ticketId}` marks those of a ticket read when its user opens it (the web does on
 * opening the thread), and tells the user's other tabs so their bells agree. Only the caller's own:
 * the user comes from the token, never from the request.
 */
import type * as z from 'zod';
import { channels } from '#contracts/channels';
import { MENTIONS_PAGE, type Mention, type MentionEvent } from '#contracts/mentions';
import { defaultEffects, type Effects } from '#domain/messages/effects';
import type { Viewer } from '#domain/tickets/access';
import { audience } from '#realtime/audience';
import { listMentions, type MentionRecord, markMentionsRead } from '#storage/mentions';
import type { readMentionsSchema } from './requests.ts';

export { readMentionsSchema } from './requests.ts';

const present = ({ companyId: _companyId, userId: _userId, ...mention }: MentionRecord): Mention => mention;

export async function listMentionsFor(viewer: Viewer): Promise<{ mentions: Mention[]; unread: number }> {
  const mentions = (await listMentions(viewer.companyId, viewer.userId, MENTIONS_PAGE)).map(present);
  return { mentions, unread: mentions.filter((mention) => mention.readAt === null).length };
}

export async function readMentionsFor(
  viewer: Viewer,
  input: z.output<typeof readMentionsSchema>,
  effects: Pick<Effects, 'publish' | 'now'> = defaultEffects,
): Promise<{ read: number }> {
  const marked = await markMentionsRead(viewer.companyId, viewer.userId, input.ticketId, effects.now().toISOString());
  if (marked.length)
    await effects.publish(
      viewer.companyId,
      channels.mention(viewer.companyId),
      { action: 'read', ticketId: input.ticketId } satisfies MentionEvent,
      audience.user(viewer.userId),
    );
  return { read: marked.length };
}
