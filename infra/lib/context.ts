import type { App } from 'aws-cdk-lib';
import type { ConversaStackProps } from './conversa-stack.ts';
import { mailAddressOf } from './mail-sender.ts';
import { MAX_EGRESS_ADDRESSES } from './session-host-network.ts';

export const DEFAULT_REGION = 'us-east-1';
/** Two addresses, one per AZ: WhatsApp sees two IPs per region, and an AZ outage leaves half the sessions' route. */
export const DEFAULT_EGRESS_ADDRESSES = 2;

/**
 * Reads the deploy-time choices from CDK context: `region` (default us-east-1), and optionally
 * `domainName` + `certificateArn` for the web app, `serverVersion` for GET /version and `alarmEmail`
 * for the address the region's alarms are e-mailed to (no e-mail subscription without it), and
 * `asaasBaseUrl` + `asaasWebhookToken` for billing's payment provider, and `openAiBaseUrl`,
 * `openAiModel`, `transcriptionBaseUrl`, `dialogflowBaseUrl` for the bots' providers (issue 13), and for
 * the session-host `sessionHostEgressAddresses` (NAT gateways with an Elastic IP each, default 2, at
 * most MAX_EGRESS_ADDRESSES), `sessionHostTasksPerEgress` (tasks behind each address, default 1) and
 * `sessionsPerEgressAddress` (the sessions an address should carry; the host's default when unset), and
 * `mailFrom` for the sender of the password-reset mails (`Conversa <no-reply@example.com>`, an SES
 * verified identity; `no-reply@<domainName>` when unset).
 */
export function stackPropsFromContext(app: App): { id: string; props: ConversaStackProps } {
  const context = (key: string): string | undefined => {
    const value = app.node.tryGetContext(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const count = (key: string, fallback: number | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const value = app.node.tryGetContext(key);
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
      throw new Error(`Context ${key} "${value}" is not a whole number from 1 to ${max}`);
    return parsed;
  };
  const region = context('region') ?? DEFAULT_REGION;
  if (!/^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(region)) throw new Error(`Context region "${region}" is not an AWS region name`);
  const domainName = context('domainName');
  const certificateArn = context('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('Context domainName and certificateArn go together');
  const alarmEmail = context('alarmEmail');
  if (alarmEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail))
    throw new Error(`Context alarmEmail "${alarmEmail}" is not an e-mail address`);
  const mailFrom = context('mailFrom');
  if (mailFrom) mailAddressOf(mailFrom);
  const providerUrl = (key: string): string | undefined => {
    const value = context(key);
    if (value && !/^https?:\/\/[^\s/]+/.test(value)) throw new Error(`Context ${key} "${value}" is not an http(s) URL`);
    return value;
  };
  return {
    id: `Conversa-${region}`,
    props: {
      // Region only: an explicit account would make synth look up availability zones online.
      env: { region },
      serverVersion: context('serverVersion'),
      domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
      alarmEmail,
      mailFrom,
      billing: { asaasBaseUrl: context('asaasBaseUrl'), asaasWebhookToken: context('asaasWebhookToken') },
      bots: {
        openAiBaseUrl: providerUrl('openAiBaseUrl'),
        openAiModel: context('openAiModel'),
        transcriptionBaseUrl: providerUrl('transcriptionBaseUrl'),
        dialogflowBaseUrl: providerUrl('dialogflowBaseUrl'),
      },
      sessionHost: {
        egressAddresses: count('sessionHostEgressAddresses', DEFAULT_EGRESS_ADDRESSES, MAX_EGRESS_ADDRESSES)!,
        tasksPerEgress: count('sessionHostTasksPerEgress', 1)!,
        sessionsPerEgress: count('sessionsPerEgressAddress', undefined),
      },
      description: `Conversa WhatsApp inbox (${region})`,
    },
  };
}
