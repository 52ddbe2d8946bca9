import type { ContactErasure } from '@conversa/functions/contracts/contact-data';
import type { Contact } from '@conversa/functions/contracts/contacts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadText } from '../../../lib/download.ts';
import { applyContactEvent } from '../../../lib/lookups/contacts.ts';

/*
 * A contact's data on request (issue 21, LGPD/GDPR): the admin downloads everything the company
 * holds about one contact as JSON, or erases it after typing its number.
 */

/** GET /contacts/{id}/export, saved as `contato-<number>.json` (its media links work for a day). */
export async function downloadContactData(contact: Pick<Contact, 'id' | 'number'>): Promise<void> {
  const document = await api<unknown>(`/contacts/${contact.id}/export`);
  downloadText(`contato-${contact.number}.json`, JSON.stringify(document, null, 2), 'application/json;charset=utf-8');
}

export function useEraseContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: { contactId: number; confirmNumber: string }) =>
      api<ContactErasure>(`/contacts/${args.contactId}/erase`, { method: 'POST', body: { confirmNumber: args.confirmNumber } }),
    onSuccess: (_, args) => applyContactEvent(queryClient, { action: 'delete', contactId: args.contactId }),
  });
}
