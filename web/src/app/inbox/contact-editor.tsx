import { useQueryClient } from '@tanstack/react-query';
import { ContactDialog } from '../../features/contacts/components/contact-dialog.tsx';
import { ticketKeys } from '../../lib/lookups/tickets.ts';

/**
 * The contact drawer's Edit button opens the contacts feature's dialog. A saved contact re-reads the
 * open tickets (their contact copy carries the name and photo the header and the rows show).
 */
export function ContactEditor({ contactId, onClose }: { contactId: number | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <ContactDialog
      open={contactId !== null}
      contactId={contactId ?? undefined}
      onClose={onClose}
      onSaved={() => {
        void queryClient.invalidateQueries({ queryKey: ticketKeys.details() });
        onClose();
      }}
    />
  );
}
