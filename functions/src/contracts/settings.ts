import * as z from 'zod';

/** Setting keys with their defaults (SPEC 3 "Setting", 9). Values are strings, as stored. */
export const settingDefaults = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'enabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  chatBotType: 'text',
  /** BEHAVIOUR: a closed ticket updated within this many hours is reopened instead of a new one. */
  timeCreateNewTicket: '2',
  asaas: '',
  /** IANA time zone used for out-of-hours checks. */
  timezone: 'America/Sao_Paulo',
  campaignsEnabled: 'true',
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof settingDefaults;

/**
 * Settings only a company's admins (and super users) ever receive: in GET /settings, in the
 * session user (login, refresh, GET /auth/me) and in the settings socket event. Every other key is
 * public to the company's users. The payment provider's key is a secret of the admins.
 */
export const adminOnlySettingKeys: ReadonlySet<SettingKey> = new Set<SettingKey>(['asaas']);
export const settingKeys = Object.keys(settingDefaults) as SettingKey[];

const toggle = z.enum(['enabled', 'disabled']);

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
};

export interface Setting {
  key: SettingKey;
  value: string;
}

export const updateSettingSchema = z.object({ value: z.string().max(500) });
