import Add from '@mui/icons-material/Add';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import {
  Button,
  Checkbox,
  IconButton,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatDayTime } from '../../../lib/dates.ts';
import { addTask, deleteTask, editTask, type Task, toggleTask, useTasks } from '../api/tasks.ts';

const when = (iso: string) => formatDayTime(iso);

function TaskRow({ task, onChange }: { task: Task; onChange: (change: (tasks: Task[]) => Task[]) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const finishEdit = () => {
    if (draft !== undefined) onChange((tasks) => editTask(tasks, task.id, draft));
    setDraft(undefined);
  };
  if (draft !== undefined) {
    return (
      <ListItem data-testid="todo-item" divider>
        <Stack
          direction="row"
          spacing={1}
          sx={{ width: '100%', alignItems: 'center' }}
          component="form"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            finishEdit();
          }}
        >
          <TextField
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setDraft(undefined)}
            size="small"
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { 'aria-label': t('todo.editLabel'), maxLength: 500, 'data-testid': 'todo-edit-input' } }}
          />
          <IconButton type="submit" aria-label={t('todo.save')} color="primary">
            <Check />
          </IconButton>
          <IconButton onClick={() => setDraft(undefined)} aria-label={t('common.cancel')}>
            <Close />
          </IconButton>
        </Stack>
      </ListItem>
    );
  }
  return (
    <ListItem
      data-testid="todo-item"
      data-done={task.done}
      divider
      secondaryAction={
        <Stack direction="row">
          <Tooltip title={t('todo.edit')}>
            <IconButton aria-label={t('todo.edit')} onClick={() => setDraft(task.text)}>
              <EditOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('todo.delete')}>
            <IconButton aria-label={t('todo.delete')} onClick={() => onChange((tasks) => deleteTask(tasks, task.id))}>
              <DeleteOutline />
            </IconButton>
          </Tooltip>
        </Stack>
      }
      sx={{ pr: 12 }}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        <Checkbox
          edge="start"
          checked={task.done}
          onChange={() => onChange((tasks) => toggleTask(tasks, task.id))}
          slotProps={{ input: { 'aria-label': t('todo.complete') } }}
        />
      </ListItemIcon>
      <ListItemText
        primary={task.text}
        secondary={task.updatedAt !== task.createdAt ? t('todo.updated', { date: when(task.updatedAt) }) : when(task.createdAt)}
        slotProps={{
          primary: {
            sx: {
              overflowWrap: 'anywhere',
              textDecoration: task.done ? 'line-through' : 'none',
              color: task.done ? 'text.secondary' : 'text.primary',
            },
          },
        }}
      />
    </ListItem>
  );
}

/** SPEC 2 "To-do list": the user's tasks, kept in this browser only (SPEC 9: local storage). */
export function TodoPage() {
  const { t } = useTranslation();
  const { tasks, update } = useTasks();
  const [text, setText] = useState('');
  const add = (event: FormEvent) => {
    event.preventDefault();
    update((current) => addTask(current, text));
    setText('');
  };
  const open = tasks.filter((task) => !task.done).length;
  return (
    <>
      <PageHeader title={t('todo.title')} />
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 900 }}>
        <Stack direction="row" spacing={1} component="form" onSubmit={add} sx={{ mb: 1 }}>
          <TextField
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('todo.placeholder')}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { 'aria-label': t('todo.placeholder'), maxLength: 500, 'data-testid': 'todo-input' } }}
          />
          <Button type="submit" variant="contained" startIcon={<Add />} sx={{ flexShrink: 0 }}>
            {t('todo.add')}
          </Button>
        </Stack>
        <Typography variant="caption" color="text.secondary" data-testid="todo-count">
          {t('todo.count', { count: open, total: tasks.length })}
        </Typography>
        {tasks.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            {t('todo.empty')}
          </Typography>
        ) : (
          <List data-testid="todo-list">
            {tasks.map((task) => (
              <TaskRow key={task.id} task={task} onChange={update} />
            ))}
          </List>
        )}
      </Paper>
    </>
  );
}
