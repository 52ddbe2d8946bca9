/**
 * The setting keys and their defaults, apart from the zod schemas of their values (settings.ts): the
 * web's signed-in shell reads them without loading zod (issue 11, first screen JS).
 */
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
  /** Issue 21: who must sign in with a second factor (TOTP): `off`, `admins` or `everyone`. */
  mfaRequired: 'off',
  /** Issue 21: messages (and their media) older than this many days are deleted; 0 keeps them forever. */
  messageRetentionDays: '0',
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof settingDefaults;

/**
 * Settings only super users ever read or write: in GET /settings, in the session user (login,
 * refresh, GET /auth/me) and in the settings socket event. Every other key is public to the
 * company's users. The Asaas key is the platform's account that charges the tenants (billing reads
 * the platform company's), so a tenant's admin has nothing to set there and must not see it (issue 25).
 */
export const superOnlySettingKeys: ReadonlySet<SettingKey> = new Set<SettingKey>(['asaas']);
export const settingKeys = Object.keys(settingDefaults) as SettingKey[];
