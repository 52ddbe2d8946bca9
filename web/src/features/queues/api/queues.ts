import type {
  CreateQueueInput,
  CreateQueueOptionInput,
  Queue,
  QueueOption,
  UpdateQueueInput,
  UpdateQueueOptionInput,
} from '@conversa/functions/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { promptChoiceKeys } from '../../../lib/lookups/bot-choices.ts';
import { queueKeys, refreshQueues } from '../../../lib/lookups/queues.ts';

/*
 * The Queues screen's own endpoints (queue options, the writes). The list itself and its keys are the
 * shared lookup in lib/lookups/queues.ts.
 */

/** GET /queue-options?queueId&parentId (-1 = the root options). */
export const fetchOptions = (queueId: number, parentId: number | null) =>
  api<QueueOption[]>('/queue-options', { query: { queueId, parentId: parentId ?? -1 } });
export const queueOptionsQueryOptions = (queueId: number, parentId: number | null) =>
  queryOptions({ queryKey: queueKeys.options(queueId, parentId), queryFn: () => fetchOptions(queueId, parentId) });
export const useQueueOptions = (queueId: number, parentId: number | null) => useQuery(queueOptionsQueryOptions(queueId, parentId));

function useInvalidateQueues() {
  const queryClient = useQueryClient();
  return () => refreshQueues(queryClient);
}

export function useSaveQueue() {
  const queryClient = useQueryClient();
  // A queue's prompt is that prompt's queue too (one link): the prompts page shows the change.
  const invalidate = () => Promise.all([refreshQueues(queryClient), queryClient.invalidateQueries({ queryKey: promptChoiceKeys.all })]);
  return useMutation({
    mutationFn: (args: { id?: number; input: CreateQueueInput | UpdateQueueInput }) =>
      args.id
        ? api<Queue>(`/queue/${args.id}`, { method: 'PUT', body: args.input })
        : api<Queue>('/queue', { method: 'POST', body: args.input }),
    onSuccess: invalidate,
  });
}

export function useDeleteQueue() {
  const invalidate = useInvalidateQueues();
  return useMutation({ mutationFn: (id: number) => api<unknown>(`/queue/${id}`, { method: 'DELETE' }), onSuccess: invalidate });
}

export function useSaveOption() {
  const invalidate = useInvalidateQueues();
  return useMutation({
    mutationFn: (args: { id?: number; input: CreateQueueOptionInput | UpdateQueueOptionInput }) =>
      args.id
        ? api<QueueOption>(`/queue-options/${args.id}`, { method: 'PUT', body: args.input })
        : api<QueueOption>('/queue-options', { method: 'POST', body: args.input }),
    onSuccess: invalidate,
  });
}

export function useDeleteOption() {
  const invalidate = useInvalidateQueues();
  return useMutation({ mutationFn: (id: number) => api<unknown>(`/queue-options/${id}`, { method: 'DELETE' }), onSuccess: invalidate });
}

/** SPEC 9: about 50 preset colours for queues. */
export const queueColorPalette = [
  '#B80000',
  '#DB3E00',
  '#FCCB00',
  '#008B02',
  '#006B76',
  '#1273DE',
  '#004DCF',
  '#5300EB',
  '#EB9694',
  '#FAD0C3',
  '#FEF3BD',
  '#C1E1C5',
  '#BEDADC',
  '#C4DEF6',
  '#BED3F3',
  '#D4C4FB',
  '#4D4D4D',
  '#999999',
  '#F44E3B',
  '#FE9200',
  '#FCDC00',
  '#DBDF00',
  '#A4DD00',
  '#68CCCA',
  '#73D8FF',
  '#AEA1FF',
  '#FDA1FF',
  '#333333',
  '#808080',
  '#D33115',
  '#E27300',
  '#FCC400',
  '#B0BC00',
  '#68BC00',
  '#16A5A5',
  '#009CE0',
  '#7B64FF',
  '#FA28FF',
  '#000000',
  '#666666',
  '#9F0500',
  '#C45100',
  '#FB9E00',
  '#808900',
  '#194D33',
  '#0C797D',
  '#0062B1',
  '#653294',
  '#AB149E',
  '#795548',
] as const;

/**
 * The colour a new queue's dialog proposes: the palette's first one no queue of the company has
 * (compared as the server does, trimmed and whatever the case), so saving the form as proposed is
 * not refused with ERR_QUEUE_COLOR_ALREADY_EXISTS (issue 25). With the whole palette taken, a colour
 * stepped through the RGB cube.
 */
export function unusedQueueColor(queues: readonly { color: string }[]): string {
  const taken = new Set(queues.map((queue) => queue.color.trim().toLowerCase()));
  const free = queueColorPalette.find((color) => !taken.has(color.toLowerCase()));
  if (free) return free;
  for (let step = 1; ; step++) {
    // 0x9e3779 (the golden ratio's bits) visits the 2^24 colours in an order far from the palette's.
    const color = `#${((step * 0x9e3779) & 0xffffff).toString(16).padStart(6, '0')}`;
    if (!taken.has(color)) return color;
  }
}
