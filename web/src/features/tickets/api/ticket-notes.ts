import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Internal notes of a ticket (SPEC 3 "Ticket note", 7). The server's record type lives in its storage
 * layer, not in the shared contracts, so the web names the fields it shows.
 */
export interface TicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id?: number; name: string } | null;
  createdAt: string;
}

/** SPEC 5: a note is required and at least 2 characters ('Too Short!'); the same rule the server applies. */
export function noteProblem(note: string): 'required' | 'tooShort' | undefined {
  const text = note.trim();
  if (!text) return 'required';
  return text.length < 2 ? 'tooShort' : undefined;
}

export const ticketNotesKey = (ticketId: number, contactId: number) => ['ticketNotes', ticketId, contactId] as const;

export const fetchTicketNotes = (ticketId: number, contactId: number) =>
  api<TicketNote[]>('/ticket-notes/list', { query: { ticketId, contactId } });

export const useTicketNotes = (ticketId: number, contactId: number, enabled: boolean) =>
  useQuery({ queryKey: ticketNotesKey(ticketId, contactId), queryFn: () => fetchTicketNotes(ticketId, contactId), enabled });

const newestFirst = (notes: TicketNote[]) => [...notes].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);

export function useAddTicketNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => api<TicketNote>('/ticket-notes', { method: 'POST', body: { note, ticketId, contactId } }),
    onSuccess: (created) =>
      queryClient.setQueryData<TicketNote[]>(ticketNotesKey(ticketId, contactId), (notes) =>
        newestFirst([created, ...(notes ?? []).filter((n) => n.id !== created.id)]),
      ),
  });
}

export function useDeleteTicketNote(ticketId: number, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/ticket-notes/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) =>
      queryClient.setQueryData<TicketNote[]>(ticketNotesKey(ticketId, contactId), (notes) => notes?.filter((n) => n.id !== id)),
  });
}
