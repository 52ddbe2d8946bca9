import Add from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { SearchField } from '../../../components/search-field.tsx';
import { useConfirmedDelete } from '../../../components/use-confirmed-delete.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useAuth } from '../../../lib/auth/auth-provider.tsx';
import { type Prompt, useDeletePrompt, usePrompts, usePromptsLive } from '../api/prompts.ts';
import { PromptDialog } from './prompt-dialog.tsx';

/** SPEC 2 "AI prompts": a table of name, queue, max tokens and actions; add, edit, delete. */
export function PromptsPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  usePromptsLive(user?.companyId);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const list = usePrompts(searchParam);
  const remove = useDeletePrompt();
  const deletion = useConfirmedDelete((prompt: Prompt) => remove.mutateAsync(prompt.id), t('prompts.deleted'));
  const [editing, setEditing] = useState<{ prompt: Prompt | undefined } | undefined>(undefined);

  const columns: Column<Prompt>[] = [
    { id: 'name', label: t('prompts.fields.name'), render: (prompt) => prompt.name },
    { id: 'queue', label: t('prompts.fields.queue'), render: (prompt) => prompt.queue?.name ?? '—' },
    // Secondary on a phone, where the name needs the room.
    {
      id: 'maxTokens',
      label: t('prompts.fields.maxTokens'),
      align: 'center',
      sx: { width: 120 },
      hideBelow: 'sm',
      render: (prompt) => prompt.maxTokens,
    },
    {
      id: 'actions',
      label: t('common.actions'),
      align: 'right',
      sx: { whiteSpace: 'nowrap', width: 96 },
      render: (prompt) => <EditDeleteActions onEdit={() => setEditing({ prompt })} onDelete={() => deletion.ask(prompt)} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('prompts.title')}
        actions={
          <>
            <SearchField value={search} onChange={setSearch} />
            <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ prompt: undefined })} sx={{ flexShrink: 0 }}>
              {t('prompts.add')}
            </Button>
          </>
        }
      />
      <DataTable
        data-testid="prompts-table"
        columns={columns}
        rows={list.data ?? []}
        rowKey={(prompt) => prompt.id}
        rowTestId={(prompt) => `prompt-${prompt.id}`}
        pending={list.isPending}
        error={list.error}
      />
      {editing && <PromptDialog prompt={editing.prompt} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('prompts.deleteTitle', { name: deletion.target?.name ?? '' })}
        message={t('prompts.deleteMessage')}
      />
    </>
  );
}
