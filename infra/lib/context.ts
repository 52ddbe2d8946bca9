import type { App } from 'aws-cdk-lib';
import type { ConversaStackProps } from './conversa-stack.ts';

export const DEFAULT_REGION = 'us-east-1';

/**
 * Reads the deploy-time choices from CDK context: `region` (default us-east-1), and optionally
 * `domainName` + `certificateArn` for the web app, `serverVersion` for GET /version and `alarmEmail`
 * for the address the region's alarms are e-mailed to (no e-mail subscription without it), and
 * `asaasBaseUrl` + `asaasWebhookToken` for billing's payment provider, and `openAiBaseUrl`,
 * `openAiModel`, `transcriptionBaseUrl`, `dialogflowBaseUrl` for the bots' providers (issue 13).
 */
export function stackPropsFromContext(app: App): { id: string; props: ConversaStackProps } {
  const context = (key: string): string | undefined => {
    const value = app.node.tryGetContext(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const region = context('region') ?? DEFAULT_REGION;
  if (!/^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(region)) throw new Error(`Context region "${region}" is not an AWS region name`);
  const domainName = context('domainName');
  const certificateArn = context('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('Context domainName and certificateArn go together');
  const alarmEmail = context('alarmEmail');
  if (alarmEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail))
    throw new Error(`Context alarmEmail "${alarmEmail}" is not an e-mail address`);
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
      billing: { asaasBaseUrl: context('asaasBaseUrl'), asaasWebhookToken: context('asaasWebhookToken') },
      bots: {
        openAiBaseUrl: providerUrl('openAiBaseUrl'),
        openAiModel: context('openAiModel'),
        transcriptionBaseUrl: providerUrl('transcriptionBaseUrl'),
        dialogflowBaseUrl: providerUrl('dialogflowBaseUrl'),
      },
      description: `Conversa WhatsApp inbox (${region})`,
    },
  };
}
