import { channels } from '@conversa/functions/contracts';
import type { ContactEvent } from '@conversa/functions/contracts/contacts';
import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { applyContactEvent } from '../api/contacts.ts';

/** Keeps the contacts cache live from `company-{id}-contact` (SPEC 7 "Realtime"). */
export function useContactsLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<ContactEvent>(companyId ? channels.contact(companyId) : undefined, (event) => {
    if (event?.action === 'delete' && typeof event.contactId === 'number') applyContactEvent(queryClient, event);
    else if ((event?.action === 'update' || event?.action === 'create') && event.contact) applyContactEvent(queryClient, event);
  });
}
