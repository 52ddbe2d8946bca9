import * as z from 'zod';

import type { SettingKey } from './setting-keys.ts';

export { type SettingKey, settingDefaults, settingKeys, superOnlySettingKeys } from './setting-keys.ts';

const toggle = z.enum(['enabled', 'disabled']);

/** messageRetentionDays: 0 (keep forever) up to ten years. */
export const MAX_RETENTION_DAYS = 3650;

/** Allowed values per key: anything else is a 400 naming `value`. */
export const settingValueSchemas: Record<SettingKey, z.ZodType<string>> = {
  userRating: toggle,
  scheduleType: z.enum(['disabled', 'queue', 'company']),
  call: toggle,
  CheckMsgIsGroup: toggle,
  sendGreetingAccepted: toggle,
  sendMsgTransfTicket: toggle,
  sendGreetingMessageOneQueues: toggle,
  chatBotType: z.enum(['text']),
  timeCreateNewTicket: z.string().regex(/^\d{1,3}$/, 'Must be a number of hours'),
  asaas: z.string().max(500),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone'),
  campaignsEnabled: z.enum(['true', 'false']),
  mfaRequired: z.enum(['off', 'admins', 'everyone']),
  messageRetentionDays: z
    .string()
    .regex(/^\d{1,4}$/, 'Must be a whole number of days')
    .refine((days) => Number(days) <= MAX_RETENTION_DAYS, `At most ${MAX_RETENTION_DAYS} days`),
};

export interface Setting {
  key: SettingKey;
  value: string;
}

export const updateSettingSchema = z.object({ value: z.string().max(500) });
