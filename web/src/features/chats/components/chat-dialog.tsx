import type { Chat } from '@conversa/functions/contracts/chats';
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { type UserName, useUserNames } from '../../../lib/lookups/users.ts';
import { toast } from '../../../lib/toast.ts';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useSaveChat } from '../api/chats.ts';

interface ChatDialogProps {
  chat?: Chat;
  onClose: () => void;
  onSaved: (chat: Chat) => void;
}

/** A chat's title and members, chosen among the company's users (the caller is always in). */
export function ChatDialog({ chat, onClose, onSaved }: ChatDialogProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const names = useUserNames();
  const save = useSaveChat();
  const showError = useErrorToast();
  const [title, setTitle] = useState(chat?.title ?? '');
  const [members, setMembers] = useState<UserName[]>(
    chat?.users.filter((member) => member.userId !== chat.ownerId).map((member) => member.user) ?? [],
  );
  const owner = chat?.ownerId ?? user?.id;
  const options = (names.data ?? []).filter((candidate) => candidate.id !== owner);
  const missingTitle = !title.trim();

  const submit = async () => {
    if (missingTitle) return;
    try {
      const saved = await save.mutateAsync({ id: chat?.id, input: { title: title.trim(), users: members.map((member) => member.id) } });
      toast.success(t('chats.saved'));
      onSaved(saved);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="chat-dialog">
      <DialogTitle>{chat ? t('chats.editTitle') : t('chats.addTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('chats.fields.title')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            required
            autoFocus
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'chat-title' } }}
          />
          <Autocomplete
            multiple
            options={options}
            value={members}
            loading={names.isPending}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            onChange={(_event, value) => setMembers(value)}
            renderInput={(params) => <TextField {...params} label={t('chats.fields.users')} data-testid="chat-members" />}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={missingTitle || save.isPending} data-testid="chat-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
