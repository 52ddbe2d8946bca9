import { channels, type ScheduleEvent } from '@conversa/functions/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateOnce } from '../../../lib/realtime/invalidate-once.ts';
import { useRealtimeEvent } from '../../../lib/realtime/realtime-provider.tsx';
import { scheduleKeys } from '../api/schedules.ts';

/** `company-{id}-schedule` carries ids (like quick messages): refetch the schedules shown (a send turns one ENVIADA). */
export function useSchedulesLive(companyId: number | undefined): void {
  const queryClient = useQueryClient();
  useRealtimeEvent<ScheduleEvent>(companyId ? channels.schedule(companyId) : undefined, () =>
    invalidateOnce(queryClient, scheduleKeys.all),
  );
}
