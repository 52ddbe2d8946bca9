/**
 * Queue integrations (SPEC 3 "Queue integration"): a tenant's bot integrations, a small set per company.
 *
 *   integration  pk = C#<cid>   sk = QI#<padded id>   { the record below }
 *                -> one Query reads the tenant's set (the page's search and pages work on it); ids are
 *                   per company like tags and quick messages
 *
 * Secrets are stored sealed (commons/secrets.ts): the Dialogflow service account and the n8n/webhook
 * signing key. Only the domain opens them.
 */
import { tenantRecords } from './tenant-records.ts';

export type IntegrationType = 'dialogflow' | 'n8n' | 'webhook' | 'typebot';

export interface QueueIntegrationRecord {
  companyId: number;
  id: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Dialogflow service-account JSON, sealed ('' when none); HTTP shows only whether it is set. */
  jsonContentSealed: string;
  /** pt-BR | en | es */
  language: string;
  /** The URL for n8n, webhook AND typebot (Typebot's base URL). */
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  /** n8n/webhook: HMAC key generated at creation, sealed; GET returns it to the admin. */
  signingSecretSealed: string;
  createdAt: string;
  updatedAt: string;
}
export type QueueIntegrationPatch = Partial<Omit<QueueIntegrationRecord, 'companyId' | 'id' | 'createdAt' | 'updatedAt'>>;

const records = tenantRecords<QueueIntegrationRecord, QueueIntegrationPatch>({
  prefix: 'QI',
  counter: 'QUEUE_INTEGRATION',
  entity: 'queueIntegration',
});

export const newQueueIntegrationId = records.newId;
export const getQueueIntegration = records.get;
export const listQueueIntegrations = records.list;
export const createQueueIntegration = records.create;
export const updateQueueIntegration = records.update;
export const deleteQueueIntegration = records.remove;
