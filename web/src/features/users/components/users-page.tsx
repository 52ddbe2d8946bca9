import type { User } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Search from '@mui/icons-material/Search';
import {
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
} from '@mui/material';
import { type UIEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { toast } from '../../../lib/toast.ts';
import { useApiErrorMessage, useErrorToast } from '../../../lib/use-api-error.ts';
import { useDeleteUser, useUsers } from '../api/users.ts';
import { UserDialog } from './user-dialog.tsx';

/** SPEC 9: the next page loads within 100 px of the bottom. */
const LOAD_MORE_THRESHOLD_PX = 100;

export function UsersPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const users = useUsers(searchParam);
  const remove = useDeleteUser();
  const showError = useErrorToast();
  const errorText = useApiErrorMessage();
  const [editing, setEditing] = useState<{ user: User | undefined } | undefined>(undefined);
  const [deleting, setDeleting] = useState<User | undefined>(undefined);
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_THRESHOLD_PX && users.hasNextPage && !users.isFetchingNextPage) {
      void users.fetchNextPage();
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success(t('users.deleted'));
    } catch (error) {
      showError(error);
    } finally {
      setDeleting(undefined);
    }
  };

  return (
    <>
      <PageHeader
        title={t('users.title')}
        actions={
          <>
            <TextField
              placeholder={t('common.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              sx={{ width: { xs: '100%', sm: 260 } }}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <Search fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ user: undefined })} sx={{ flexShrink: 0 }}>
              {t('users.add')}
            </Button>
          </>
        }
      />
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 'calc(100vh - 220px)' }} onScroll={onScroll}>
        <Table stickyHeader size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('users.fields.id')}</TableCell>
              <TableCell>{t('users.fields.name')}</TableCell>
              <TableCell>{t('users.fields.email')}</TableCell>
              <TableCell>{t('users.fields.profile')}</TableCell>
              <TableCell align="right">{t('common.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((user) => (
              <TableRow key={user.id} hover>
                <TableCell>{user.id}</TableCell>
                <TableCell>{user.name}</TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{t(`users.profiles.${user.profile}`)}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t('common.edit')}>
                    <IconButton size="small" onClick={() => setEditing({ user })}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('common.delete')}>
                    <IconButton size="small" onClick={() => setDeleting(user)}>
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {(users.isPending || users.isFetchingNextPage) && (
              <TableRow>
                <TableCell colSpan={5} align="center">
                  <CircularProgress size={24} />
                </TableCell>
              </TableRow>
            )}
            {users.isError && (
              <TableRow>
                <TableCell colSpan={5} align="center" sx={{ color: 'error.main' }}>
                  {errorText(users.error)}
                </TableCell>
              </TableRow>
            )}
            {users.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={5} align="center" sx={{ color: 'text.secondary' }}>
                  {t('common.noRecords')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {editing && <UserDialog open user={editing.user} adminFields onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('users.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('users.deleteMessage')}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}
