import type { TicketSla } from '@conversa/functions/contracts/sla';
import TimerOutlined from '@mui/icons-material/TimerOutlined';
import { Chip } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { liveSlaState } from '../api/sla.ts';

/** How often the rows' countdowns move. */
const TICK_MS = 30_000;

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "12 min", "3 h", "2 d": the time left, short (the units read the same in pt, en and es). */
export function timeLeft(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** The ticket row's service level (issue 22 §3): the time left to its next target, or Breached. Nothing when met or without targets. */
export function SlaChip({ sla }: { sla: TicketSla | null | undefined }) {
  const { t } = useTranslation();
  const now = useNow(TICK_MS);
  if (!sla) return null;
  const state = liveSlaState(sla, now);
  const small = { height: 20, fontSize: 11 };
  if (state === 'breached')
    return (
      <Chip
        size="small"
        color="error"
        icon={<TimerOutlined />}
        label={t('sla.chip.breached')}
        aria-label={t('sla.chip.breachedLabel')}
        data-testid="sla-chip"
        data-state={state}
        sx={small}
      />
    );
  if (state === 'met' || !sla.nextDueAt) return null;
  const time = timeLeft(Date.parse(sla.nextDueAt) - now);
  return (
    <Chip
      size="small"
      variant={state === 'dueSoon' ? 'filled' : 'outlined'}
      color={state === 'dueSoon' ? 'warning' : 'success'}
      icon={<TimerOutlined />}
      label={t('sla.chip.left', { time })}
      aria-label={t('sla.chip.leftLabel', { time })}
      data-testid="sla-chip"
      data-state={state}
      sx={small}
    />
  );
}
