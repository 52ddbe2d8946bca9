import type { Ticket } from '@conversa/functions/contracts/tickets';
import Close from '@mui/icons-material/Close';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  Avatar,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../../components/confirm-dialog.tsx';
import { formatDayTime } from '../../../../lib/dates.ts';
import { useContact } from '../../../../lib/lookups/contacts.ts';
import { formatPhoneNumber } from '../../../../lib/phone-numbers.ts';
import { toast } from '../../../../lib/toast.ts';
import { useErrorToast } from '../../../../lib/use-api-error.ts';
import { noteProblem, type TicketNote, useAddTicketNote, useDeleteTicketNote, useTicketNotes } from '../../api/ticket-notes.ts';

/** SPEC 9: the contact drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

interface ContactDrawerProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
  /** The contact's edit dialog belongs to the contacts feature: the app composes it (absent: no Edit button). */
  onEditContact?: (contactId: number) => void;
}

function Notes({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const showError = useErrorToast();
  const notes = useTicketNotes(ticket.id, ticket.contactId, true);
  const add = useAddTicketNote(ticket.id, ticket.contactId);
  const remove = useDeleteTicketNote(ticket.id, ticket.contactId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const [deleting, setDeleting] = useState<TicketNote | null>(null);

  const save = async () => {
    const invalid = noteProblem(text);
    setProblem(invalid && t(`validation.${invalid}`));
    if (invalid) return;
    try {
      await add.mutateAsync(text.trim());
      setText('');
      toast.success(t('conversation.notes.added'));
    } catch (error) {
      showError(error);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      setDeleting(null);
      toast.success(t('conversation.notes.deleted'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Box data-testid="ticket-notes">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('conversation.notes.title')}
      </Typography>
      <TextField
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(undefined);
        }}
        placeholder={t('conversation.notes.placeholder')}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        size="small"
        error={Boolean(problem)}
        helperText={problem}
        slotProps={{ htmlInput: { 'aria-label': t('conversation.notes.placeholder') } }}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button size="small" variant="contained" loading={add.isPending} onClick={() => void save()}>
          {t('conversation.notes.save')}
        </Button>
      </Stack>
      <List dense disablePadding>
        {(notes.data ?? []).map((note) => (
          <ListItem
            key={note.id}
            divider
            disableGutters
            data-testid="ticket-note"
            secondaryAction={
              <Tooltip title={t('common.delete')}>
                <IconButton edge="end" size="small" aria-label={t('common.delete')} onClick={() => setDeleting(note)}>
                  <DeleteOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            }
          >
            <ListItemText
              primary={note.note}
              secondary={`${note.user?.name ?? ''} · ${formatDayTime(note.createdAt)}`}
              slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } } }}
            />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('conversation.notes.deleteTitle')}
        message={t('conversation.notes.deleteConfirm')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

/** SPEC 2 "Conversation": the contact side drawer (photo, name, number, email, Edit, notes, extra info). */
export function ContactDrawer({ ticket, open, onClose, onEditContact }: ContactDrawerProps) {
  const { t } = useTranslation();
  // An edit made elsewhere (another attendant, the contacts screen) shows here at once: the app-wide
  // useContactsLive writes it into contactKeys.detail, the entry this reads.
  const contact = useContact(ticket.contactId, open);
  const name = contact.data?.name ?? ticket.contact.name;
  const number = contact.data?.number ?? ticket.contact.number;
  const email = contact.data?.email;
  const extraInfo = contact.data?.extraInfo ?? [];
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the fixed app bar (drawer + 1), or the bar would cover the drawer's close button and title.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { sx: { width: CONTACT_DRAWER_WIDTH, maxWidth: '100vw' }, 'data-testid': 'contact-drawer' } as object }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', px: 1, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <IconButton aria-label={t('inbox.close')} onClick={onClose} size="small">
          <Close />
        </IconButton>
        <Typography variant="subtitle1" sx={{ ml: 1 }}>
          {t('conversation.contact.title')}
        </Typography>
      </Stack>
      <Stack spacing={2} sx={{ p: 2, overflowY: 'auto' }}>
        <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Avatar
            src={contact.data?.profilePicUrl || ticket.contact.profilePicUrl || undefined}
            alt={name}
            sx={{ width: 120, height: 120 }}
          >
            {name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Typography variant="h6" sx={{ wordBreak: 'break-word' }}>
            {name}
          </Typography>
          <Link href={`tel:${number}`} underline="hover">
            {formatPhoneNumber(number, ticket.isGroup)}
          </Link>
          {email && (
            <Link href={`mailto:${email}`} underline="hover">
              {email}
            </Link>
          )}
          {onEditContact && (
            <Button variant="outlined" size="small" startIcon={<EditOutlined />} onClick={() => onEditContact(ticket.contactId)}>
              {t('conversation.contact.edit')}
            </Button>
          )}
        </Stack>
        <Divider />
        <Notes ticket={ticket} />
        {extraInfo.length > 0 && (
          <>
            <Divider />
            <Box>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                {t('conversation.contact.extraInfo')}
              </Typography>
              {extraInfo.map((info) => (
                <Box key={`${info.name}-${info.value}`} sx={{ mb: 1 }}>
                  <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                    {info.name}
                  </Typography>
                  <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                    {info.value}
                  </Typography>
                </Box>
              ))}
            </Box>
          </>
        )}
      </Stack>
    </Drawer>
  );
}
