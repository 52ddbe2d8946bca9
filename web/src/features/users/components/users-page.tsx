import type { User } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { PresenceDot } from '../../../components/presence-dot.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { useDeleteUser, useUsers, useUsersPresenceLive } from '../api/users.ts';
import { UserDialog } from './user-dialog.tsx';

export function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const users = useUsers(searchParam);
  useUsersPresenceLive(useAuth().user?.companyId);
  const remove = useDeleteUser();
  const deletion = useConfirmedDelete((user: User) => remove.mutateAsync(user.id), t('users.deleted'));
  const [editing, setEditing] = useState<{ user: User | undefined } | undefined>(undefined);
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];

  const columns: Column<User>[] = [
    { id: 'id', label: t('users.fields.id'), render: (user) => user.id },
    { id: 'name', label: t('users.fields.name'), render: (user) => user.name },
    { id: 'email', label: t('users.fields.email'), render: (user) => user.email },
    { id: 'profile', label: t('users.fields.profile'), render: (user) => t(`users.profiles.${user.profile}`) },
    {
      id: 'presence',
      label: t('presence.column'),
      render: (user) => (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1 }}>
          <PresenceDot presence={user.presence} />
          {t(`presence.${user.presence}`)}
        </Stack>
      ),
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap' },
      render: (user) => <EditDeleteActions onEdit={() => setEditing({ user })} onDelete={() => deletion.ask(user)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('users.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ user: undefined })} sx={{ flexShrink: 0 }}>
              {t('users.add')}
            </Button>
          </>
        }
      />
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(user) => user.id}
        pending={users.isPending}
        error={users.error}
        hasMore={users.hasNextPage}
        loadingMore={users.isFetchingNextPage}
        onLoadMore={() => void users.fetchNextPage()}
      />
      {editing && <UserDialog open user={editing.user} adminFields onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('users.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('users.deleteMessage')}
      />
    </>
  );
}
