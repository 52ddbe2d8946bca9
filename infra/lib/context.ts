import type { App } from 'aws-cdk-lib';
import type { ConversaStackProps } from './conversa-stack.ts';
import { type CapacityRange, ON_DEMAND, type TableCapacity } from './data-table.ts';
import { mailAddressOf } from './mail-sender.ts';
import { MAX_EGRESS_ADDRESSES } from './session-host-network.ts';

export const DEFAULT_REGION = 'us-east-1';
/** Two addresses, one per AZ: WhatsApp sees two IPs per region, and an AZ outage leaves half the sessions' route. */
export const DEFAULT_EGRESS_ADDRESSES = 2;

/**
 * Provisioned capacity's defaults: 5 units at rest for the table and each of its three indexes
 * (about $11 a month for their reads and writes at us-east-1's prices), up to 4,000 a second each
 * (a region's ~250 inbound messages a second at bench:cost's ~16 write units a message), auto
 * scaling holding 70 % of it used.
 */
export const DEFAULT_PROVISIONED: Extract<TableCapacity, { mode: 'provisioned' }> = {
  mode: 'provisioned',
  writes: { min: 5, max: 4000 },
  reads: { min: 5, max: 4000 },
  targetUtilizationPercent: 70,
};
/** DynamoDB's default quota of capacity units per table and per index (each can be raised in Service Quotas). */
const MAX_CAPACITY_UNITS = 40_000;

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
 * verified identity; `no-reply@<domainName>` when unset), and `tableCapacity` (`on-demand`, the default, or
 * `provisioned`, with `tableWriteCapacity` and `tableReadCapacity` as `<min>-<max>` units a second and
 * `tableTargetUtilization` a percentage from 20 to 90: see tableCapacityFrom), and `conversationCounter`
 * (`separate`, the default, or `shared`: the second step of the shared contact and ticket counter,
 * for a region where no code older than its first step runs; functions/src/storage/contacts/conversation-ids.ts).
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
      tableCapacity: tableCapacityFrom(context),
      conversationCounter: conversationCounterFrom(context),
      description: `Conversa WhatsApp inbox (${region})`,
    },
  };
}

/**
 * The table's capacity mode from context. Provisioned bills the capacity kept ready by the hour
 * (about 0.4 of on demand's price a write at 70 % used, bench:cost), which pays for a region whose
 * traffic is steady; a burst past what auto scaling has reached is throttled (and retried by the
 * SDK) until it catches up, within minutes. AWS lets a table switch modes once in 24 hours.
 */
function conversationCounterFrom(context: (key: string) => string | undefined): 'separate' | 'shared' {
  const value = context('conversationCounter') ?? 'separate';
  if (value !== 'separate' && value !== 'shared') throw new Error(`Context conversationCounter "${value}" is neither separate nor shared`);
  return value;
}

function tableCapacityFrom(context: (key: string) => string | undefined): TableCapacity {
  const mode = context('tableCapacity') ?? 'on-demand';
  const tuning = ['tableWriteCapacity', 'tableReadCapacity', 'tableTargetUtilization'].filter((key) => context(key) !== undefined);
  if (mode === 'on-demand') {
    if (tuning.length) throw new Error(`Context ${tuning.join(', ')} applies to tableCapacity=provisioned only`);
    return ON_DEMAND;
  }
  if (mode !== 'provisioned') throw new Error(`Context tableCapacity "${mode}" is neither on-demand nor provisioned`);
  const range = (key: string, fallback: CapacityRange): CapacityRange => {
    const value = context(key);
    if (value === undefined) return fallback;
    const match = /^(\d+)-(\d+)$/.exec(value);
    const [min, max] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
    if (!match || min < 1 || min > max || max > MAX_CAPACITY_UNITS)
      throw new Error(`Context ${key} "${value}" is not <min>-<max> capacity units, 1 <= min <= max <= ${MAX_CAPACITY_UNITS}`);
    return { min, max };
  };
  const target = context('tableTargetUtilization');
  const targetUtilizationPercent = target === undefined ? DEFAULT_PROVISIONED.targetUtilizationPercent : Number(target);
  if (!Number.isInteger(targetUtilizationPercent) || targetUtilizationPercent < 20 || targetUtilizationPercent > 90)
    throw new Error(`Context tableTargetUtilization "${target}" is not a whole percentage from 20 to 90`);
  return {
    mode,
    writes: range('tableWriteCapacity', DEFAULT_PROVISIONED.writes),
    reads: range('tableReadCapacity', DEFAULT_PROVISIONED.reads),
    targetUtilizationPercent,
  };
}
