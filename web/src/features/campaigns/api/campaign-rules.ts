/**
 * The campaign screens' rules (SPEC 2 "Campaigns", "Campaign report", 4 "Campaign", 9), kept pure so
 * they are unit-tested: status colours and actions, the settings' records, the report's figures,
 * and the schedule's conversions between a `datetime-local` value and the instant the API takes.
 */
import {
  type Campaign,
  type CampaignProgress,
  type CampaignSettings,
  type CampaignSettingsRecords,
  type CampaignStatus,
  defaultCampaignSettings,
} from '@conversa/functions/contracts/campaigns';
import { fromCompanyInput, toCompanyInput } from '../../../lib/company-time.ts';
import { formatDayTime } from '../../../lib/dates.ts';

export type ChipColor = 'default' | 'info' | 'warning' | 'success' | 'error';

/** How each status reads at a glance: waiting grey/blue, running amber, done green, cancelled red. */
export const statusColor: Record<CampaignStatus, ChipColor> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/** SPEC 2 "Campaigns" actions: stop when in progress, restart when cancelled. */
export const canCancel = (campaign: Pick<Campaign, 'status'>) => campaign.status === 'EM_ANDAMENTO';
export const canRestart = (campaign: Pick<Campaign, 'status'>) => campaign.status === 'CANCELADA';

/**
 * SPEC 4: read-only unless editable. The spec's client also kept the save button on a CANCELADA
 * campaign, but the API refuses any change to one (409 ERR_CAMPAIGN_NOT_EDITABLE): a button that can
 * only fail is not offered. The server's `editable` is the rule at answer time.
 */
export const showsSave = (campaign: Pick<Campaign, 'editable'> | undefined) => !campaign || campaign.editable;

/** GET /campaign-settings answers `[{ key, value }]`, each value JSON (SPEC 7): missing or unreadable keys keep their default. */
export function settingsFromRecords(records: CampaignSettingsRecords | undefined): CampaignSettings {
  const settings: CampaignSettings = { ...defaultCampaignSettings, variables: [] };
  for (const record of records ?? []) {
    let value: unknown;
    try {
      value = JSON.parse(record.value);
    } catch {
      continue;
    }
    if (record.key === 'variables' && Array.isArray(value)) settings.variables = value as CampaignSettings['variables'];
    else if (record.key !== 'variables' && typeof value === 'number') settings[record.key] = value;
  }
  return settings;
}

/** The report's figures (SPEC 2 "Campaign report") as the engine counts them, and delivered over valid in percent. */
export function campaignProgress(campaign: Pick<Campaign, 'status' | 'progress'> | undefined): CampaignProgress & { percent: number } {
  const figures: CampaignProgress = {
    valid: 0,
    invalid: 0,
    queued: 0,
    delivered: 0,
    failed: 0,
    confirmationRequested: 0,
    confirmed: 0,
    ...campaign?.progress,
  };
  // SPEC 2: "delivered out of valid contacts"; a finished campaign is full even with nobody valid.
  const percent =
    campaign?.status === 'FINALIZADA' ? 100 : figures.valid > 0 ? Math.min(100, Math.round((figures.delivered / figures.valid) * 100)) : 0;
  return { ...figures, percent };
}

/** The value of the date-time field for an instant, on the company's clock (lib/company-time.ts), not the browser's. */
export const toLocalInput = (at: string | Date): string => toCompanyInput(at);

/**
 * The instant a `datetime-local` value means here, with seconds (SPEC 5 "Scheduled time is sent
 * formatted as date and time with seconds"), as the API takes it; null when empty or invalid.
 */
export function fromLocalInput(value: string): string | null {
  return fromCompanyInput(value)?.toISOString() ?? null;
}

/** A date and time in the interface's language, as every other screen writes it (lib/dates.ts: 31/12/2099 14:05). */
export function formatDateTime(at: string | null | undefined, language: string): string {
  if (!at) return '-';
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '-' : formatDayTime(date, language);
}
