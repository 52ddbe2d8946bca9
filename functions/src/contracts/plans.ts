import * as z from 'zod';

export const planFlags = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
export type PlanFlag = (typeof planFlags)[number];

/** SPEC 3 "Plan"; defaults from SPEC 9: limits and value 0, every flag on. */
export const planInputSchema = z.object({
  name: z.string().trim().min(1, 'Required').max(100, 'Too Long!'),
  users: z.coerce.number().int().min(0).default(0),
  connections: z.coerce.number().int().min(0).default(0),
  queues: z.coerce.number().int().min(0).default(0),
  campaigns: z.coerce.number().int().min(0).default(0),
  schedules: z.coerce.number().int().min(0).default(0),
  value: z.coerce.number().min(0).default(0),
  useCampaigns: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useInternalChat: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
});
export type PlanInput = z.infer<typeof planInputSchema>;

export interface Plan extends PlanInput {
  id: number;
  createdAt: string;
  updatedAt: string;
}

/** Public plan list shown on signup: no internal fields. */
/** Limits (users, connections, queues, ...) of 0 mean no limit, so the spec's default plan (all 0) is usable. */
export type PublicPlan = Pick<Plan, 'id' | 'name' | 'users' | 'connections' | 'queues' | 'value'> & Record<PlanFlag, boolean>;
