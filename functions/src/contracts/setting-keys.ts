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
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof settingDefaults;

/**
 * Settings only a company's admins (and super users) ever receive: in GET /settings, in the
 * session user (login, refresh, GET /auth/me) and in the settings socket event. Every other key is
 * public to the company's users. The payment provider's key is a secret of the admins.
 */
export const adminOnlySettingKeys: ReadonlySet<SettingKey> = new Set<SettingKey>(['asaas']);
export const settingKeys = Object.keys(settingDefaults) as SettingKey[];
