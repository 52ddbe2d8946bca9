/** Requests of the companies API that no screen shares (the rest are in companies.ts, which every Lambda loads). */
import * as z from 'zod';
import { schedulesSchema } from './schedules.ts';

/** PUT /companies/{id}/schedules: `{ schedules: [...] }` (a bare array is wrapped by the handler). */
export const companySchedulesBodySchema = z.object({ schedules: schedulesSchema });

/** GET /companies/export/{jobId}: the export job's id. */
export const exportJobParamsSchema = z.object({ jobId: z.string().uuid() });
