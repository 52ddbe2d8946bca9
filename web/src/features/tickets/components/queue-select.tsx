import { Box, Checkbox, ListItemText, MenuItem, Select, type SelectChangeEvent } from '@mui/material';
import { useTranslation } from 'react-i18next';

export interface QueueChoice {
  id: number;
  name: string;
  color: string;
}

interface QueueSelectProps {
  queues: QueueChoice[];
  selected: number[];
  onChange: (ids: number[]) => void;
}

/** SPEC 2: the ticket manager's queue multi-select; lists follow the selection at once. */
export function QueueSelect({ queues, selected, onChange }: QueueSelectProps) {
  const { t } = useTranslation();
  return (
    <Select<number[]>
      multiple
      size="small"
      displayEmpty
      value={selected}
      onChange={(event: SelectChangeEvent<number[]>) => {
        const value = event.target.value;
        onChange(typeof value === 'string' ? value.split(',').map(Number) : value);
      }}
      renderValue={() => t('inbox.queues')}
      inputProps={{ 'aria-label': t('inbox.queues') }}
      sx={{ minWidth: 110 }}
      data-testid="queue-select"
    >
      {queues.map((queue) => (
        <MenuItem key={queue.id} value={queue.id} dense>
          <Checkbox
            size="small"
            checked={selected.includes(queue.id)}
            sx={{ color: queue.color, '&.Mui-checked': { color: queue.color } }}
          />
          <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: queue.color, mr: 1 }} />
          <ListItemText primary={queue.name} />
        </MenuItem>
      ))}
    </Select>
  );
}
