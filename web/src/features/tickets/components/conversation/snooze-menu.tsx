import type { Ticket } from '@conversa/functions/contracts/tickets';
import SnoozeOutlined from '@mui/icons-material/SnoozeOutlined';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
} from '@mui/material';
import { addDays, addHours, nextMonday, setHours, startOfHour } from 'date-fns';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { fromCompanyInput, fromZoned, toCompanyInput, zoned } from '../../../../lib/company-time.ts';
import { formatDayTime } from '../../../../lib/dates.ts';
import { toast } from '../../../../lib/toast.ts';
import { useErrorToast } from '../../../../lib/use-api-error.ts';
import { useUpdateTicket } from '../../api/tickets.ts';

const MAX_DAYS = 90;

/** 9:00 of that company day (the team's morning), as the instant it is: `day` holds a company wall clock. */
const nineOn = (day: Date) => fromZoned(startOfHour(setHours(day, 9)));

/**
 * The presets, from now: in an hour, tomorrow 9:00, next Monday 9:00, "tomorrow" and "9:00" on the
 * company's clock (issue 25 "One time zone"), whatever zone this browser is in.
 */
export function snoozePresets(now = new Date()) {
  const wall = zoned(now);
  return {
    oneHour: addHours(now, 1),
    tomorrow: nineOn(addDays(wall, 1)),
    nextWeek: nineOn(nextMonday(wall)),
  };
}

/**
 * The conversation's Snooze (issue 22 §5): the ticket leaves the lists until the chosen time (a
 * preset or a date and time picked), then comes back by itself; a snoozed ticket can be woken here.
 * After snoozing the view goes back to the list, as after Resolve: the ticket is no longer in it.
 */
export function SnoozeMenu({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const showError = useErrorToast();
  const update = useUpdateTicket();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [custom, setCustom] = useState(false);
  const [value, setValue] = useState('');

  const snooze = async (until: Date | null) => {
    setAnchor(null);
    try {
      await update.mutateAsync({ id: ticket.id, input: { snoozeUntil: until ? until.toISOString() : null } });
      setCustom(false);
      if (until) {
        toast.success(t('snooze.done', { when: formatDayTime(until) }));
        navigate('/tickets');
      } else toast.success(t('snooze.woken'));
    } catch (error) {
      showError(error);
    }
  };

  const presets = snoozePresets();
  // The field's value is a company wall clock, as every date-time the app takes.
  const picked = value ? (fromCompanyInput(value) ?? null) : null;
  const pickedValid =
    picked !== null && !Number.isNaN(picked.getTime()) && picked.getTime() > Date.now() && picked <= addDays(new Date(), MAX_DAYS);

  return (
    <>
      <Tooltip title={t('snooze.action')}>
        <IconButton
          aria-label={t('snooze.action')}
          onClick={(event) => setAnchor(event.currentTarget)}
          size="small"
          color={ticket.snoozedUntil ? 'primary' : 'default'}
          data-testid="snooze-button"
        >
          <SnoozeOutlined />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)} data-testid="snooze-menu">
        <MenuItem onClick={() => void snooze(presets.oneHour)}>{t('snooze.oneHour')}</MenuItem>
        <MenuItem onClick={() => void snooze(presets.tomorrow)}>{t('snooze.tomorrow')}</MenuItem>
        <MenuItem onClick={() => void snooze(presets.nextWeek)}>{t('snooze.nextWeek')}</MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setValue(toCompanyInput(presets.tomorrow));
            setCustom(true);
          }}
        >
          {t('snooze.custom')}
        </MenuItem>
        {ticket.snoozedUntil && <Divider />}
        {ticket.snoozedUntil && <MenuItem onClick={() => void snooze(null)}>{t('snooze.wake')}</MenuItem>}
      </Menu>
      <Dialog open={custom} onClose={() => setCustom(false)} fullWidth maxWidth="xs">
        <DialogTitle>{t('snooze.customTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            type="datetime-local"
            label={t('snooze.when')}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={Boolean(value) && !pickedValid}
            helperText={value && !pickedValid ? t('snooze.invalid') : ' '}
            fullWidth
            sx={{ mt: 1 }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setCustom(false)} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button variant="contained" disabled={!pickedValid} loading={update.isPending} onClick={() => picked && void snooze(picked)}>
            {t('snooze.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
