import { cognitoTriggers } from '@conversa/functions/declarations/cognito-triggers';
import { jobs } from '@conversa/functions/declarations/jobs';
import { httpRoutes } from '@conversa/functions/routes';
import { CfnOutput, Duration, Fn, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { LogsBucket, MediaBucket } from './buckets.ts';
import { type LambdaEntry, lambdaEntries } from './bundling.ts';
import { DataTable, type TableCapacity } from './data-table.ts';
import { ConversaHttpApi, type DeployedRoute } from './http-api.ts';
import { Identity } from './identity.ts';
import { ConversaFunction } from './lambda-function.ts';
import { defaultMailFrom, MailSender } from './mail-sender.ts';
import { Messaging } from './messaging.ts';
import { Monitoring } from './monitoring.ts';
import { SecretsKey } from './secrets-key.ts';
import { SessionHostService, type SessionHostServiceProps } from './session-host-service.ts';
import { TableAutoScaling } from './table-auto-scaling.ts';
import { TableStreams } from './table-streams.ts';
import { WebHosting } from './web-hosting.ts';
import { ConversaWebSocketApi } from './websocket-api.ts';

/** Privileges beyond the common ones (table, realtime publish): the one place they are declared. */
interface ExtraAccess {
  /** Admin actions on the user pool (signup, user CRUD, ending sessions). */
  cognitoAdmin?: boolean;
  /** Read/write on the media bucket (uploads, presigned URLs). */
  media?: boolean;
  /** Read-only on the media bucket (presigned GETs of existing objects). */
  mediaRead?: boolean;
  /** Queues the function sends to. */
  send?: string[];
  /** Seals or opens tenant secrets (SECRETS_KEY_ARN + read on the key; functions/src/commons/secrets.ts). */
  secrets?: boolean;
  /** Queues whose dead-letter queue the function sends to itself (QUEUE_URL_<NAME>_DLQ + send). */
  sendDeadLetter?: string[];
  /** Sends mail through SES from the region's sender (MAIL_FROM + ses:SendEmail on its identity). */
  mail?: boolean;
}
const extraAccess: Partial<Record<string, ExtraAccess>> = {
  // expiresTicket closes with expiresInactiveMessage: a `send` command to the session-host.
  'ticket-sweeps': { send: ['session-commands'] },
  // Retention deletes the media of the messages it removes.
  'message-retention': { media: true },
  // auth seals and opens the second factor's TOTP secrets and a sign-in challenge's tokens (issue 21),
  // and mails our own password-reset code (SES), whose digest is keyed with the same secret.
  auth: { cognitoAdmin: true, secrets: true, mail: true },
  // A company's data export (issue 21 §5): queued here, its zip's link presigned here, built by the consumer.
  // Deleting a company removes every object under its prefix (list + delete), so read/write.
  companies: { cognitoAdmin: true, media: true, send: ['company-exports'] },
  'company-exports': { media: true },
  // Raising a user's maxOpenTickets runs automatic assignment (issue 22 §2), whose accept greeting is a sent message.
  users: { cognitoAdmin: true, send: ['session-commands'] },
  // Turning a queue's autoAssign on assigns its waiting tickets, with the accept greeting (issue 22 §2).
  queues: { send: ['session-commands'] },
  // An attendant's socket coming online assigns them waiting tickets, with the accept greeting (issue 22 §2).
  realtime: { send: ['session-commands'] },
  // The chatbot's replies go to the session-host as `send` commands; a prompt's or integration's
  // turn is queued for the bot-turns consumer.
  inbound: { send: ['session-commands', 'bot-turns'] },
  // A bot's answers are sent messages; a contact's voice note is read for transcription.
  // It opens the prompts' API keys and the integrations' credentials (secrets).
  'bot-turns': { mediaRead: true, send: ['session-commands'], secrets: true },
  // Session actions (start, new QR, logout) are commands to the session-host.
  connections: { send: ['session-commands'] },
  // Accept greetings, transfer notices and rating requests are sent messages.
  tickets: { send: ['session-commands'] },
  // Sends upload media, then queue `send`/`delete` commands; the media route only reads.
  messages: { media: true, send: ['session-commands'] },
  'external-api': { media: true, send: ['session-commands'] },
  // Importing the phone's contacts is an `importContacts` command to the session-host.
  'contacts-import': { send: ['session-commands'] },
  media: { mediaRead: true },
  // A contact's data on request (issue 21): the export presigns its media, the erasure deletes it.
  contacts: { media: true },
  // Quick messages' attachments: upload and delete in the media bucket.
  'quick-messages': { media: true },
  // Schedules' attachments: upload and delete in the media bucket.
  schedules: { media: true },
  // Due scheduled messages go out as `send` commands (their media is already in the bucket).
  'schedule-sends': { send: ['session-commands'] },
  // The campaign engine's clock: a start on save queues it; ticks queue the next tick and the sends.
  // The campaign's attachment: upload and delete in the media bucket.
  // Both reach the engine's tick, which may send a contact's message at once (session-commands).
  campaigns: { media: true, send: ['campaign-ticks', 'session-commands'] },
  'campaign-ticks': { send: ['session-commands', 'campaign-ticks'] },
  'campaign-starts': { send: ['campaign-ticks', 'session-commands'] },
  // An announcement's image: presigned uploads, multipart uploads and removal in the media bucket.
  announcements: { media: true },
  // File lists' files: multipart uploads, presigned PUTs and removal in the media bucket.
  files: { media: true },
  // A list's new numbers are checked against WhatsApp: `checkNumbers` commands to the session-host.
  'contact-lists': { send: ['session-commands'] },
  'contact-lists-import': { send: ['session-commands'] },
  // AI prompts and queue integrations store their API keys and credentials sealed; the bot-turns
  // consumer (issue 13) opens them to call the providers. No other Lambda reads the key.
  prompts: { secrets: true },
  'queue-integrations': { secrets: true },
  // Webhooks (issue 23 §2): the endpoints' signing secrets are sealed here and opened by the consumer
  // that signs each attempt; a test event or a resend queues an attempt. The consumer parks retries
  // on webhook-retries and puts a delivery whose retries ran out on its queue's DLQ; the retries'
  // consumer moves a due retry back to the FIFO queue, or parks it again.
  webhooks: { secrets: true, send: ['webhook-deliveries'] },
  'webhook-deliveries': { secrets: true, send: ['webhook-retries'], sendDeadLetter: ['webhook-deliveries'] },
  'webhook-retries': { send: ['webhook-deliveries', 'webhook-retries'] },
};

export interface ConversaStackProps extends StackProps {
  /** Reported by GET /version. */
  serverVersion?: string;
  domain?: { name: string; certificateArn: string };
  /** Subscribed by e-mail to the region's alarm topic (context `alarmEmail`). */
  alarmEmail?: string;
  /**
   * The HTTP route table and the Lambdas: functions/src/routes.ts and lambdaEntries() (its
   * declarations) unless a test widens them, as the resource budget test does with the spec's routes.
   */
  api?: { routes: readonly DeployedRoute[]; lambdas: readonly LambdaEntry[] };
  /**
   * The payment provider (context `asaasBaseUrl`, `asaasWebhookToken`): Asaas' API root (production
   * unless set: the sandbox is https://api-sandbox.asaas.com/v3) and the access token configured on
   * Asaas' webhook, without which every webhook call is refused. Given only to the Lambda serving billing.
   */
  billing?: { asaasBaseUrl?: string; asaasWebhookToken?: string };
  /**
   * The AI prompts' and queue integrations' providers (context `openAiBaseUrl`, `openAiModel`,
   * `transcriptionBaseUrl`, `dialogflowBaseUrl`): unset, the handlers use OpenAI, gpt-4o-mini, no
   * transcription and Google's Dialogflow. Given only to the Lambdas that call the providers.
   */
  bots?: BotProviderSettings;
  /** The session-host's egress addresses and tasks (context, see context.ts): one address, one task unless given. */
  sessionHost?: SessionHostServiceProps;
  /** The sender of the product's mails (context `mailFrom`), an SES identity of the region (mail-sender.ts). */
  mailFrom?: string;
  /** On demand unless the operator chose provisioned capacity with auto scaling (context `tableCapacity`, context.ts). */
  tableCapacity?: TableCapacity;
  /** `shared` once no older code runs in the region (context `conversationCounter`, context.ts). */
  conversationCounter?: 'separate' | 'shared';
}

export interface BotProviderSettings {
  openAiBaseUrl?: string;
  openAiModel?: string;
  transcriptionBaseUrl?: string;
  dialogflowBaseUrl?: string;
}

/**
 * The Lambdas that call the bot providers (functions/src/adapters/openai.ts, typebot.ts, bot-webhook.ts,
 * dialogflow.ts): the integrations' testSession and the bot-turns consumer. A name not deployed (yet) is skipped.
 */
export const botProviderFunctions: readonly string[] = ['queue-integrations', 'bot-turns'];

/** The env vars functions/src/commons/env.ts reads for the providers, for the settings given. */
export function botProviderEnv(bots: BotProviderSettings = {}): Record<string, string> {
  const vars: Record<string, string | undefined> = {
    OPENAI_BASE_URL: bots.openAiBaseUrl,
    OPENAI_MODEL: bots.openAiModel,
    TRANSCRIPTION_BASE_URL: bots.transcriptionBaseUrl,
    DIALOGFLOW_BASE_URL: bots.dialogflowBaseUrl,
  };
  return Object.fromEntries(Object.entries(vars).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** Construct id of a Lambda: `inbound-consumer` -> `InboundConsumerFunction`. */
export const functionConstructId = (name: string): string =>
  `${name.replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Function`;

/** Conversa in one region: everything ARCHITECTURE.md draws, nothing shared across regions. */
export class ConversaStack extends Stack {
  readonly functions: ReadonlyMap<string, ConversaFunction>;
  readonly httpApi: ConversaHttpApi;
  /** The alarm topic, every alarm and the dashboard (a nested stack: 1 alarm per Lambda stays out of this template). */
  readonly monitoringStack: NestedStack;
  /** The session-host's network, egress addresses and services (a nested stack: they grow with the addresses). */
  readonly sessionHostStack: NestedStack;
  readonly sessionHost: SessionHostService;
  /** The table's and indexes' auto scaling (a nested stack), only with provisioned capacity. */
  readonly tableCapacityStack?: NestedStack;

  constructor(scope: Construct, id: string, props: ConversaStackProps = {}) {
    super(scope, id, props);
    const logs = new LogsBucket(this, 'AccessLogs');
    const web = new WebHosting(this, 'Web', { logs: logs.bucket, domain: props.domain });
    const data = new DataTable(this, 'Data', props.tableCapacity);
    if (props.tableCapacity?.mode === 'provisioned') {
      this.tableCapacityStack = new NestedStack(this, 'TableCapacity', {
        description: 'Conversa table and index auto scaling (provisioned capacity)',
      });
      new TableAutoScaling(this.tableCapacityStack, 'AutoScaling', {
        tableName: data.table.tableName,
        indexNames: data.indexNames,
        capacity: props.tableCapacity,
      });
    }
    const identity = new Identity(this, 'Identity');
    const messaging = new Messaging(this, 'Queues');
    const streams = new TableStreams(this, 'TableStreams', data.table);
    const media = new MediaBucket(this, 'Media', { logs: logs.bucket, webOrigin: web.origin });
    const secretsKey = new SecretsKey(this, 'SecretsKey');
    const mail = new MailSender(this, 'Mail', { from: props.mailFrom ?? defaultMailFrom(props.domain?.name) });

    const functions = new Map<string, ConversaFunction>();
    const { routes, lambdas } = props.api ?? { routes: httpRoutes, lambdas: lambdaEntries() };
    for (const { name, entry, kind } of lambdas) {
      const consumed = kind === 'queue' ? messaging.queues.find((q) => q.declaration.consumer === name) : undefined;
      const scheduled = kind === 'scheduled' ? jobs.find((s) => s.name === name) : undefined;
      const fn = new ConversaFunction(this, functionConstructId(name), {
        entry,
        description: `Conversa ${kind} handler: ${name}`,
        // A consumer must finish well inside its queue's visibility timeout or messages are redelivered mid-run.
        timeout: consumed
          ? Duration.seconds(Math.max(3, Math.floor(consumed.declaration.visibilityTimeoutSeconds / 6)))
          : scheduled
            ? Duration.seconds(scheduled.timeoutSeconds)
            : undefined,
      });
      if (consumed) messaging.attachConsumer(fn, consumed.declaration.name);
      if (kind === 'stream') streams.attachConsumer(fn, name);
      functions.set(name, fn);
    }
    this.functions = functions;

    // Scheduled jobs (schedules.ts): an EventBridge rate rule each. No async retries: a failed run
    // is covered by the next one, and a retry would only overlap it.
    for (const { name, rateMinutes } of jobs) {
      const fn = functions.get(name)!;
      fn.configureAsyncInvoke({ retryAttempts: 0 });
      new Rule(this, `${functionConstructId(name)}Schedule`, {
        description: `Conversa scheduled job: ${name}`,
        schedule: Schedule.rate(Duration.minutes(rateMinutes)),
        targets: [new LambdaFunction(fn)],
      });
    }

    const httpApi = new ConversaHttpApi(this, 'Http', { routes, functions, identity, webOrigin: web.origin });
    this.httpApi = httpApi;
    const realtime = functions.get('realtime');
    const wsApi = realtime ? new ConversaWebSocketApi(this, 'Realtime', { realtime }) : undefined;

    const billingFunctions = new Set(routes.filter((route) => route.path.startsWith('/subscription')).map((route) => route.fn));
    const streamConsumers = new Set(lambdas.filter((lambda) => lambda.kind === 'stream').map((lambda) => lambda.name));
    // The one place every Lambda gets its environment and grants.
    for (const [name, fn] of functions) {
      data.bind(fn, fn);
      fn.addEnvironment('SERVER_VERSION', props.serverVersion ?? '6.0.0');
      fn.addEnvironment('POWERTOOLS_SERVICE_NAME', 'conversa');
      // A stream consumer keeps the table's own derived items (the search words): the table, its
      // stream and its DLQ (table-streams.ts) are all it is given, no queue, pool, socket or bucket.
      if (streamConsumers.has(name)) continue;
      const trigger = cognitoTriggers.find((declared) => declared.name === name);
      if (trigger) identity.attachTrigger(fn, trigger);
      else identity.bind(fn);
      media.bind(fn);
      messaging.bind(fn);
      wsApi?.bindPublisher(fn, fn);
      // Every publisher may hand a big tenant's frames to the fan-out queue (functions/src/realtime/fanout.ts).
      if (wsApi) messaging.grantSend(fn, 'realtime-fanout');
      // Every change the inbox makes may be a webhook event of the company (functions/src/domain/webhooks/emit.ts).
      messaging.grantSend(fn, 'webhook-deliveries');
      fn.addEnvironment('CORS_ORIGIN', web.origin);
      if (props.conversationCounter === 'shared') fn.addEnvironment('CONVERSATION_COUNTER', 'shared');
      if (billingFunctions.has(name)) {
        if (props.billing?.asaasBaseUrl) fn.addEnvironment('ASAAS_BASE_URL', props.billing.asaasBaseUrl);
        if (props.billing?.asaasWebhookToken) fn.addEnvironment('ASAAS_WEBHOOK_TOKEN', props.billing.asaasWebhookToken);
      }
      if (botProviderFunctions.includes(name)) {
        for (const [key, value] of Object.entries(botProviderEnv(props.bots))) fn.addEnvironment(key, value);
      }
      const extra = extraAccess[name] ?? {};
      if (extra.cognitoAdmin) identity.grantAdmin(fn);
      if (extra.media) media.grantReadWrite(fn);
      else if (extra.mediaRead) media.grantRead(fn);
      for (const queue of extra.send ?? []) messaging.grantSend(fn, queue);
      for (const queue of extra.sendDeadLetter ?? []) messaging.bindDeadLetter(fn, queue);
      if (extra.secrets) secretsKey.bind(fn);
      if (extra.mail) mail.bind(fn, fn);
    }

    this.sessionHostStack = new NestedStack(this, 'SessionHost', {
      description: 'Conversa session-host: VPC, egress addresses (NAT gateway + Elastic IP each) and the Fargate services behind them',
    });
    const sessionHost = new SessionHostService(
      this.sessionHostStack,
      'Hosts',
      props.sessionHost ?? { egressAddresses: 1, tasksPerEgress: 1 },
    );
    this.sessionHost = sessionHost;
    const { container, taskRole } = sessionHost;
    data.bind(container, taskRole);
    messaging.bind(container);
    media.bind(container);
    media.grantReadWrite(taskRole);
    // Session status and acks reach the browsers as realtime events published from the host itself.
    wsApi?.bindPublisher(container, taskRole);
    for (const { declaration } of messaging.queues) {
      // It produces every queue's events (inbound, acks) and consumes the ones no Lambda does (commands).
      messaging.grantSend(taskRole, declaration.name);
      if (!declaration.consumer) messaging.grantConsume(taskRole, declaration.name);
    }

    // Its own template: the alarms grow with every Lambda and queue, and this one must keep room for
    // the rest of the spec. The functions, queues, service and socket API it names arrive as parameters.
    this.monitoringStack = new NestedStack(this, 'Alarms', { description: 'Conversa alarms, alarm topic and dashboard' });
    const monitoring = new Monitoring(this.monitoringStack, 'Monitoring', {
      alarmEmail: props.alarmEmail,
      functions,
      queues: messaging.queues,
      streamConsumers: streams.consumers,
      sessionHost,
      realtime: wsApi && { apiId: wsApi.api.apiId, stageName: wsApi.stage.stageName },
      table: { tableName: data.table.tableName, indexNames: data.indexNames },
    });
    monitoring.grantPublishSessionHostMetrics(taskRole);

    web.deploy({
      apiUrl: httpApi.url,
      wsUrl: wsApi?.url ?? '',
      region: this.region,
      userPoolId: identity.userPool.userPoolId,
      userPoolClientId: identity.client.userPoolClientId,
    });

    new CfnOutput(this, 'WebUrl', { value: web.origin });
    new CfnOutput(this, 'ApiUrl', { value: httpApi.url });
    if (wsApi) new CfnOutput(this, 'WsUrl', { value: wsApi.url });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.client.userPoolClientId });
    new CfnOutput(this, 'TableName', { value: data.table.tableName });
    // What WhatsApp (and any allow-list) sees of this region: the session-hosts' Elastic IPs, in group order.
    new CfnOutput(this, 'SessionHostEgressAddresses', {
      description: 'Public addresses the WhatsApp sessions leave by (egress-1, egress-2, ...)',
      value: Fn.join(
        ',',
        sessionHost.groups.map((group) => group.address),
      ),
    });
  }
}
