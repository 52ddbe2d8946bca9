import type { QueueOption } from '@conversa/functions/contracts';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Save from '@mui/icons-material/SaveOutlined';
import { Box, Button, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorToast } from '../../../lib/use-api-error.ts';
import { useDeleteOption, useQueueOptions, useSaveOption } from '../api/queues.ts';

/** The chatbot option tree of a queue: each level loads on demand; deleting a node drops its subtree. */
export function QueueOptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {t('queues.options.title')}
      </Typography>
      <OptionLevel queueId={queueId} parentId={null} depth={0} />
    </Box>
  );
}

function OptionLevel({ queueId, parentId, depth }: { queueId: number; parentId: number | null; depth: number }) {
  const { t } = useTranslation();
  const options = useQueueOptions(queueId, parentId);
  const save = useSaveOption();
  const showError = useErrorToast();
  const add = () => save.mutate({ input: { queueId, parentId, title: '', message: '', option: '' } }, { onError: showError });
  return (
    <Stack spacing={1} sx={{ pl: depth ? 3 : 0, borderLeft: depth ? 1 : 0, borderColor: 'divider' }}>
      {(options.data ?? []).map((option) => (
        <OptionNode key={option.id} option={option} depth={depth} />
      ))}
      <Box>
        <Button size="small" startIcon={<Add />} onClick={add} disabled={save.isPending}>
          {parentId === null ? t('queues.options.add') : t('queues.options.addChild')}
        </Button>
      </Box>
    </Stack>
  );
}

function OptionNode({ option, depth }: { option: QueueOption; depth: number }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(option.title);
  const [message, setMessage] = useState(option.message);
  const save = useSaveOption();
  const remove = useDeleteOption();
  const showError = useErrorToast();
  const dirty = title !== option.title || message !== option.message;
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography sx={{ pt: 1, minWidth: 24, fontWeight: 600 }}>{option.option}</Typography>
        {/* Title above message, both the row's full width: side by side, the full-width title took
            the whole row and squeezed the message to nothing, so what was typed there was invisible. */}
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <TextField
            size="small"
            label={t('queues.options.titleField')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            fullWidth
          />
          <TextField
            size="small"
            label={t('queues.options.message')}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            multiline
            minRows={2}
            fullWidth
          />
        </Stack>
        <Tooltip title={t('common.save')}>
          <span>
            <IconButton
              disabled={!dirty || save.isPending}
              onClick={() => save.mutate({ id: option.id, input: { title, message } }, { onError: showError })}
            >
              <Save fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('queues.options.deleteTitle', { name: option.title || option.option })}>
          <IconButton onClick={() => remove.mutate(option.id, { onError: showError })} disabled={remove.isPending}>
            <DeleteOutline fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <Box sx={{ mt: 1 }}>
        <OptionLevel queueId={option.queueId} parentId={option.id} depth={depth + 1} />
      </Box>
    </Box>
  );
}
