/**
 * A realtime change of a shared entity reaches every screen that shows it (issue 11, STYLE 7): the
 * functions the app-wide live hooks call (src/lib/lookups/*, mounted by src/app/realtime-bridge.tsx)
 * reach the queries the features' hooks create, the lookup's own and each feature's page, and leave
 * other entities alone. Prepare / Act / Assess.
 */
import type { Connection } from '@conversa/functions/contracts';
import type { Contact } from '@conversa/functions/contracts/contacts';
import { type InfiniteData, QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { contactsInfiniteQueryOptions } from '../src/features/contacts/api/contacts.ts';
import { queueOptionsQueryOptions } from '../src/features/queues/api/queues.ts';
import { quickMessagesInfiniteQueryOptions } from '../src/features/quick-messages/api/quick-messages.ts';
import { tagsInfiniteQueryOptions } from '../src/features/tags/api/tags.ts';
import { usersInfiniteQueryOptions } from '../src/features/users/api/users.ts';
import { meQueryOptions } from '../src/lib/auth/session-api.ts';
import { connectionQueryOptions, connectionsQueryOptions, putConnection } from '../src/lib/lookups/connections.ts';
import { applyContactEvent, type ContactsPage, contactQueryOptions, contactSearchQueryOptions } from '../src/lib/lookups/contacts.ts';
import { queuesQueryOptions, refreshQueues } from '../src/lib/lookups/queues.ts';
import { quickMessageOptionsQueryOptions, refreshQuickMessages } from '../src/lib/lookups/quick-messages.ts';
import { refreshTags, tagOptionsQueryOptions } from '../src/lib/lookups/tags.ts';
import { refreshUsers, userNamesQueryOptions } from '../src/lib/lookups/users.ts';

/** A cache holding data under each key, as the screens' hooks leave it once they have loaded. */
function cacheWith(keys: QueryKey[]) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, []);
  const invalidated = (key: QueryKey) => client.getQueryState(key)?.isInvalidated;
  return { client, invalidated };
}

describe('a live change reaches every query of its entity', () => {
  it('queues: the shared list (inbox, transfer, connection and user dialogs) and the Queues screen options', async () => {
    const list = queuesQueryOptions().queryKey;
    const options = queueOptionsQueryOptions(3, null).queryKey;
    const tags = tagOptionsQueryOptions().queryKey;
    const { client, invalidated } = cacheWith([list, options, tags]);

    await refreshQueues(client);

    expect([invalidated(list), invalidated(options), invalidated(tags)]).toEqual([true, true, false]);
  });

  it('users: the Users screen pages, the transfer dialog names and the session', async () => {
    const page = usersInfiniteQueryOptions('ana').queryKey;
    const names = userNamesQueryOptions().queryKey;
    const me = meQueryOptions().queryKey;
    const queues = queuesQueryOptions().queryKey;
    const { client, invalidated } = cacheWith([page, names, me, queues]);

    await refreshUsers(client);

    expect([invalidated(page), invalidated(names), invalidated(me), invalidated(queues)]).toEqual([true, true, true, false]);
  });

  it("tags: the Tags screen pages and the inbox's filter and picker", async () => {
    const page = tagsInfiniteQueryOptions('').queryKey;
    const options = tagOptionsQueryOptions().queryKey;
    const users = userNamesQueryOptions().queryKey;
    const { client, invalidated } = cacheWith([page, options, users]);

    await refreshTags(client);

    expect([invalidated(page), invalidated(options), invalidated(users)]).toEqual([true, true, false]);
  });

  it("quick messages: the Quick messages screen pages and the conversation's '/' list", async () => {
    const page = quickMessagesInfiniteQueryOptions('').queryKey;
    const shortcut = quickMessageOptionsQueryOptions(1, 2).queryKey;
    const tags = tagOptionsQueryOptions().queryKey;
    const { client, invalidated } = cacheWith([page, shortcut, tags]);

    await refreshQuickMessages(client);

    expect([invalidated(page), invalidated(shortcut), invalidated(tags)]).toEqual([true, true, false]);
  });

  it("contacts: the Contacts screen's list, the pickers' search and the drawer's detail", () => {
    const ana = { id: 2, companyId: 1, name: 'Ana', number: '5511999990002', email: '', extraInfo: [] } as unknown as Contact;
    const list = contactsInfiniteQueryOptions('').queryKey;
    const search = contactSearchQueryOptions('ana').queryKey;
    const detail = contactQueryOptions(2).queryKey;
    const client = new QueryClient();
    const page: ContactsPage = { contacts: [ana], hasMore: false, count: 1 };
    client.setQueryData<InfiniteData<ContactsPage>>(list, { pages: [page], pageParams: [{ pageNumber: 1 }] });
    client.setQueryData(search, page);
    client.setQueryData(detail, ana);

    applyContactEvent(client, { action: 'update', contact: { ...ana, name: 'Ana Paula' } });

    expect(client.getQueryData<InfiniteData<ContactsPage>>(list)?.pages[0]?.contacts[0]?.name).toBe('Ana Paula');
    expect(client.getQueryData<Contact>(detail)?.name).toBe('Ana Paula');
    expect(client.getQueryState(search)?.isInvalidated).toBe(true);
  });

  it("connections: the list (Connections screen, menu badge, user and new-ticket dialogs) and the editor's detail", () => {
    const main = { id: 1, name: 'Main', status: 'CONNECTED', isDefault: true, token: 'secret' } as unknown as Connection;
    const list = connectionsQueryOptions().queryKey;
    const detail = connectionQueryOptions(1).queryKey;
    const client = new QueryClient();
    client.setQueryData(list, [main]);
    client.setQueryData(detail, main);

    putConnection(client, { ...main, status: 'DISCONNECTED', token: '' });

    expect(client.getQueryData<Connection[]>(list)?.map((c) => c.status)).toEqual(['DISCONNECTED']);
    expect(client.getQueryData<Connection>(detail)?.status).toBe('DISCONNECTED');
  });
});
