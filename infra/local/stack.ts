/**
 * The whole product on one machine: the same handlers and AWS SDK clients as in AWS, pointed at
 * embedded stand-ins (ARCHITECTURE "Local mode"). Used by `npm start` (fixed ports, data on disk)
 * and by the test global setup (free ports, in-memory data).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cognitoTriggers } from '@conversa/functions/declarations/cognito-triggers';
import { TABLE_LOGICAL_NAME } from '@conversa/functions/storage/table';
import { startBotFakes, TYPEBOT_SLUG } from './bot-fakes/server.ts';
import { type Child, spawnChild, stripAnsi } from './child-process.ts';
import { startCloudWatch } from './cloudwatch.ts';
import { ensurePoolAndClient, startCognitoLocal } from './cognito/cognito-local.ts';
import { startCognitoProxy } from './cognito/cognito-proxy.ts';
import { assertJava, ensureTable, startDynamoDbLocal } from './dynamodb-local/dynamodb-local.ts';
import { startHttpGateway } from './http-gateway.ts';
import { startLambdaInvoke } from './lambda-invoke.ts';
import { handlerFile, lambdaContext, loadHandler, repoRoot } from './lambda-runtime.ts';
import { startMailSink } from './mail-sink.ts';
import { startPaymentProvider } from './payment-provider/server.ts';
import { assertPortFree, type Ports, resolvePorts } from './ports.ts';
import { startS3 } from './s3.ts';
import { startSchedules } from './scheduler.ts';
import { startQueuePollers, startSqs } from './sqs.ts';
import { startTableStreams } from './table-streams.ts';
import { ensureWebBuild, startWebServer } from './web-server.ts';
import { startSimulator } from './whatsapp-simulator/server.ts';
import { startWsGateway, type WsGateway } from './ws-gateway.ts';

export type { Ports } from './ports.ts';

export interface LocalStackOptions {
  /** Where data lives across restarts; undefined = in memory / a temp folder removed on stop. */
  dataDir?: string;
  ports?: Partial<Ports> | 'auto';
  /** Serve web/dist and /config.json (building the app when its build is stale). */
  web?: boolean;
  log?: (line: string) => void;
  /** `replacesPassword`: an admin already seeded gets this password (its old one was lost with local.json). */
  seedAdmin?: { email: string; password: string; replacesPassword?: boolean };
  /**
   * How long the table's stream consumers gather records (declarations/table-streams.ts): 200 ms by
   * default, so a search finds a new message at once; 'declared' keeps each consumer's own window,
   * as AWS runs it (the benches, whose invocation counts are billed).
   */
  tableStreamWindowMs?: number | 'declared';
  /** The WebSocket gateway's new-connection quota; AWS's 500 per second by default (bench:reconnect sets it). */
  wsNewConnectionsPerSecond?: number;
}

export interface LocalStack {
  apiUrl: string;
  wsUrl: string;
  /** Drops every socket at once, as a deploy does (bench:reconnect). */
  dropAllSockets: WsGateway['dropAll'];
  webUrl?: string;
  /** The WhatsApp simulator: its page (chat as a contact) and the control API tests drive. */
  simulatorUrl: string;
  /** The fake payment provider (Asaas' API subset): its page, where a person pays a charge, and control API. */
  paymentProviderUrl: string;
  /** The fake bot providers (infra/local/bot-fakes): OpenAI, Typebot, webhook/n8n and Dialogflow under one root. */
  botFakesUrl: string;
  /** What a tenant pastes to try each integration against the fakes. */
  botFakes: { typebotBaseUrl: string; typebotSlug: string; webhookEchoUrl: string; dialogflowCredentialsUrl: string };
  /** The session-host child: crash and restart it (tests, benches). */
  sessionHost: SessionHostControl;
  admin: { email: string; password: string };
  /** The environment the handlers run with (also applied to this process while the stack runs). */
  env: Record<string, string>;
  cognito: { endpoint: string; userPoolId: string; clientId: string };
  /** SES's stand-in (infra/local/mail-sink.ts): every mail the product sent, password-reset codes included. */
  mailUrl: string;
  /** Milliseconds each phase took, for the start-time report. */
  timings: Record<string, number>;
  /**
   * Resolves once every table write made before the call went through the table's stream consumers
   * (the message search words, say): a test or a bench waits for them without sleeping.
   */
  drainTableStreams(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The session-host child process, for crash tests: kill it the way a Fargate task dies, start it again
 * with the same environment (the same HOST_ID, so it retakes its leases at once).
 */
export interface SessionHostControl {
  readonly pid: number | undefined;
  /** Signals its process group (SIGKILL by default: nothing released, nothing flushed); resolves once it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again if it is not running; resolves once it logged that it started. */
  start(): Promise<void>;
}

export const REGION = 'us-east-1';
export const MEDIA_BUCKET = 'conversa-media';
export const DEFAULT_ADMIN = { email: 'admin@conversa.local', password: 'Conversa-Local-1' };
/** The sender of the product's mails locally (MAIL_FROM; the mail sink takes any). */
export const LOCAL_MAIL_FROM = 'Conversa <no-reply@conversa.local>';

type Stopper = { name: string; stop: () => Promise<unknown> };

/**
 * The handlers run in this process and keep their SDK clients and JWT verifier as module singletons
 * (as in a Lambda), bound to the first stack's endpoints: a second stack here would reach dead ports.
 */
let startedInThisProcess = false;

export async function startLocalStack(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (phase: string) => {
    timings[phase] = Date.now() - started;
  };
  if (startedInThisProcess)
    throw new Error('One local stack per process: the handlers cache their clients for the first one. Start another process.');
  startedInThisProcess = true;
  // Before anything starts: without Java there is no stack, and the message should be the first thing said.
  assertJava();
  const ports = await resolvePorts(opts.ports);
  if (opts.ports !== 'auto') {
    for (const [name, port] of Object.entries(ports)) if (port) await assertPortFree(port, name);
  }
  // Without a data dir, cognito-local still needs a folder for its JSON: a temp one, removed on stop.
  const tempDir = opts.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'conversa-local-'));
  const dataDir = opts.dataDir ?? (tempDir as string);
  /** cognito-local's working directory: its config and, under .cognito/db, its user pools. */
  const cognitoDir = join(dataDir, 'cognito');
  mkdirSync(dataDir, { recursive: true });

  const stoppers: Stopper[] = [];
  const children: Child[] = [];
  const previousEnv: Record<string, string | undefined> = {};
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    // Reverse order: consumers and gateways before the stores they call.
    for (const { name, stop } of stoppers.reverse()) {
      await stop().catch((error: unknown) => log(`[stack] stopping ${name}: ${String(error)}`));
    }
    await Promise.allSettled(children.map((child) => child.stop()));
    for (const [key, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };

  try {
    // The pool's triggers run here and cognito-local calls them through Lambda's Invoke API, so it
    // must know the endpoint before it starts.
    const lambdas = await startLambdaInvoke({ log });
    stoppers.push({ name: 'lambda-invoke', stop: lambdas.close });
    const triggers = {
      lambdaEndpoint: lambdas.url,
      // cognito-local speaks version 1 events only: a version 2 trigger runs in the Cognito proxy.
      functions: Object.fromEntries(
        cognitoTriggers.filter((trigger) => !trigger.version).map((trigger) => [trigger.operation, trigger.name]),
      ),
    };
    const preTokenGeneration = cognitoTriggers.find((trigger) => trigger.operation === 'PreTokenGeneration' && trigger.version === 'V2_0');
    // Independent stand-ins start together; DynamoDB Local (a JVM) is the slow one. allSettled, not
    // all: when one fails, the others must have registered their children before stop() runs.
    const settled = await Promise.allSettled([
      startDynamoDbLocal({ port: ports.dynamodb, dbPath: opts.dataDir ? join(dataDir, 'dynamodb') : undefined, log: dynamoLog(log) }).then(
        async (d) => {
          children.push(d.child);
          mark('dynamodb');
          await ensureTable(d.endpoint, TABLE_LOGICAL_NAME);
          mark('table');
          return d;
        },
      ),
      startCognitoLocal({ port: ports.cognitoUpstream, dir: cognitoDir, log: cognitoLog(log), triggers }).then(async (c) => {
        children.push(c.child);
        const ids = await ensurePoolAndClient(c.url);
        mark('cognito');
        return { ...c, ...ids };
      }),
      startS3({ port: ports.s3, directory: opts.dataDir ? join(dataDir, 's3') : undefined, buckets: [MEDIA_BUCKET] }).then((s) => {
        stoppers.push({ name: 's3', stop: s.stop });
        return s;
      }),
      startSqs({ port: ports.sqs, region: REGION }).then((s) => {
        stoppers.push({ name: 'sqs', stop: s.stop });
        return s;
      }),
      startCloudWatch({ port: ports.cloudwatch }).then((c) => {
        stoppers.push({ name: 'cloudwatch', stop: c.stop });
        return c;
      }),
      startMailSink({ port: ports.mail, file: opts.dataDir ? join(dataDir, 'mail', 'outbox.jsonl') : undefined, log }).then((m) => {
        stoppers.push({ name: 'mail', stop: m.stop });
        return m;
      }),
      // A broken web build (mid-edit) must not take the API down: the web server then says what is wrong.
      opts.web
        ? ensureWebBuild(log).then(
            () => mark('webBuild'),
            (error: unknown) => log(`[web] build failed, serving without it:\n${buildError(error)}`),
          )
        : undefined,
    ]);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const [dynamo, cognitoLocal, s3, sqs, cloudWatch, mail] = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [
      Awaited<ReturnType<typeof startDynamoDbLocal>>,
      Awaited<ReturnType<typeof startCognitoLocal>> & { userPoolId: string; clientId: string },
      Awaited<ReturnType<typeof startS3>>,
      Awaited<ReturnType<typeof startSqs>>,
      Awaited<ReturnType<typeof startCloudWatch>>,
      Awaited<ReturnType<typeof startMailSink>>,
    ];
    const { userPoolId, clientId } = cognitoLocal;
    const proxy = await startCognitoProxy({
      port: ports.cognito,
      upstream: cognitoLocal.url,
      stateFile: opts.dataDir ? join(dataDir, 'cognito', 'proxy-state.json') : undefined,
      log,
      ...(preTokenGeneration
        ? { preTokenGeneration: { lambdaEndpoint: lambdas.url, functionName: preTokenGeneration.name, userPoolId } }
        : {}),
    });
    stoppers.push({ name: 'cognito-proxy', stop: proxy.close });

    const ws = await startWsGateway({ port: ports.ws, invoke: wsInvoker(), newConnectionsPerSecond: opts.wsNewConnectionsPerSecond });
    stoppers.push({ name: 'ws-gateway', stop: ws.close });
    // Asaas' stand-in: pays a charge on request by calling our webhook with this run's token, as Asaas would.
    let webhookUrl = '';
    const webhookToken = randomBytes(18).toString('base64url');
    const payments = await startPaymentProvider({
      port: ports.paymentProvider,
      apiKey: LOCAL_ASAAS_KEY,
      webhook: { url: () => webhookUrl, token: webhookToken },
      log,
    });
    stoppers.push({ name: 'payment-provider', stop: payments.close });
    // The AI prompts' and queue integrations' providers: the handlers reach them through the env below.
    const botFakes = await startBotFakes({ port: ports.botFakes });
    stoppers.push({ name: 'bot-fakes', stop: botFakes.close });

    const env: Record<string, string> = {
      TABLE_NAME: TABLE_LOGICAL_NAME,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      USER_POOL_ID: userPoolId,
      USER_POOL_CLIENT_ID: clientId,
      // Must equal the `iss` of cognito-local's tokens: its own URL, not the proxy's.
      JWT_ISSUER: `${cognitoLocal.url}/${userPoolId}`,
      COGNITO_ENDPOINT: proxy.url,
      WS_MANAGEMENT_URL: ws.managementUrl,
      MEDIA_BUCKET,
      S3_ENDPOINT: s3.endpoint,
      SQS_ENDPOINT: sqs.endpoint,
      ...sqs.env,
      CLOUDWATCH_ENDPOINT: cloudWatch.endpoint,
      SES_ENDPOINT: mail.endpoint,
      MAIL_FROM: LOCAL_MAIL_FROM,
      // No code older than the shared counter's first step runs here (functions/src/storage/contacts/conversation-ids.ts).
      CONVERSATION_COUNTER: 'shared',
      SERVER_VERSION: serverVersion(),
      ASAAS_BASE_URL: payments.apiUrl,
      ASAAS_WEBHOOK_TOKEN: webhookToken,
      OPENAI_BASE_URL: botFakes.openAiBaseUrl,
      TRANSCRIPTION_BASE_URL: botFakes.openAiBaseUrl,
      DIALOGFLOW_BASE_URL: botFakes.dialogflowBaseUrl,
      // The fakes listen on 127.0.0.1, which a tenant's bot URL may not name in AWS (adapters/provider-http.ts);
      // a webhook endpoint may name it too, so a developer points one at a server on their own machine.
      ALLOW_PRIVATE_BOT_URLS: '1',
      // A failed webhook delivery is retried after ~2 s, ~6 s, ~18 s... rather than 30 s, 90 s... (domain/webhooks/backoff.ts),
      // so a developer (and a test) sees the retries; the same code, a shorter schedule.
      WEBHOOK_RETRY_BASE_SECONDS: process.env.WEBHOOK_RETRY_BASE_SECONDS ?? '2',
      SECRETS_KEY: localSecretsKey(opts.dataDir),
    };
    // The handlers run in this process and read process.env, as a Lambda reads its configuration.
    for (const [key, value] of Object.entries(env)) {
      previousEnv[key] = process.env[key];
      process.env[key] = value;
    }

    // The table's stream consumers (declarations/table-streams.ts), fed as Lambda's event source
    // mapping feeds them; their batching window is cut to 200 ms (unless the caller keeps the
    // declared one) so a search finds a new message at once.
    const window = opts.tableStreamWindowMs ?? 200;
    const tableStreams = startTableStreams({
      endpoint: dynamo.endpoint,
      tableName: TABLE_LOGICAL_NAME,
      region: REGION,
      log,
      ...(window === 'declared' ? {} : { maxBatchingWindowMs: window }),
      checkpointFile: opts.dataDir ? join(dataDir, 'dynamodb', 'stream-checkpoints.json') : undefined,
    });
    stoppers.push({ name: 'table-streams', stop: tableStreams.stop });

    const api = await startHttpGateway({ port: ports.api, log });
    stoppers.push({ name: 'http-gateway', stop: api.close });
    webhookUrl = `${api.url.replace(/\/$/, '')}/subscription/webhook`;
    const pollers = startQueuePollers({ sqs, region: REGION, log });
    stoppers.push({ name: 'queue-pollers', stop: pollers.stop });
    // The EventBridge rules of functions/src/declarations/jobs.ts (ticket sweeps), on timers.
    const scheduled = startSchedules({ region: REGION, log });
    stoppers.push({ name: 'schedules', stop: scheduled.stop });
    mark('gateways');

    const admin = opts.seedAdmin ?? DEFAULT_ADMIN;
    await seed(admin, log);
    await seedPaymentKey();
    mark('seeded');

    // The simulated WhatsApp network lives in this process so it outlives session-host restarts.
    const simulator = await startSimulator({ port: ports.simulator });
    stoppers.push({ name: 'simulator', stop: simulator.close });
    const sessionHost = sessionHostControl(
      // A stable HOST_ID lets a restarted session-host reclaim its sessions at once instead of after the lease.
      {
        ...env,
        SESSION_PROVIDER: process.env.SESSION_PROVIDER ?? 'simulator',
        SIMULATOR_URL: simulator.url,
        HOST_ID: 'local-session-host',
        // Figures within seconds rather than a minute, so a person or a test sees them change.
        METRICS_INTERVAL_MS: '2000',
      },
      log,
    );
    children.push(sessionHost.child);

    let webUrl: string | undefined;
    if (opts.web) {
      const web = await startWebServer({
        port: ports.web,
        config: { apiUrl: api.url, wsUrl: ws.url, region: REGION, userPoolId, userPoolClientId: clientId, userPoolEndpoint: proxy.url },
        log,
      });
      stoppers.push({ name: 'web', stop: web.close });
      webUrl = web.url;
      // As the deployed API allows only the region's web origin (declarations/api-cors.ts): this web
      // server, however its loopback host is written.
      const { port } = new URL(web.url);
      api.allowOrigins([`http://localhost:${port}`, `http://127.0.0.1:${port}`]);
    }
    mark('ready');

    return {
      apiUrl: api.url,
      wsUrl: ws.url,
      dropAllSockets: ws.dropAll,
      webUrl,
      simulatorUrl: simulator.url,
      paymentProviderUrl: payments.url,
      botFakesUrl: botFakes.url,
      botFakes: {
        typebotBaseUrl: botFakes.typebotBaseUrl,
        typebotSlug: TYPEBOT_SLUG,
        webhookEchoUrl: botFakes.webhookEchoUrl,
        dialogflowCredentialsUrl: `${botFakes.dialogflowBaseUrl}/credentials?project=conversa-local`,
      },
      sessionHost: sessionHost.control,
      admin,
      env,
      cognito: { endpoint: proxy.url, userPoolId, clientId },
      mailUrl: mail.endpoint,
      timings,
      drainTableStreams: tableStreams.drain,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function buildError(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr;
  const text = stripAnsi(stderr || (error instanceof Error ? error.message : String(error)));
  return text
    .split('\n')
    .filter((line) => line.trim() && !/npm (warn|error)|^\s+at /.test(line))
    .slice(0, 20)
    .join('\n');
}

/**
 * The key tenant secrets are sealed with (functions/src/commons/secrets.ts), as Secrets Manager keeps it
 * in AWS: generated once and kept beside the data it opens (.data/secrets-key), so a restart still opens
 * the API keys stored before it. Without a data dir (tests) a fresh one per run.
 */
function localSecretsKey(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(32).toString('base64');
  const file = join(dataDir, 'secrets-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

function serverVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(repoRoot, 'web', 'package.json'), 'utf8')) as { version?: string }).version ?? '6.0.0';
  } catch {
    return '6.0.0';
  }
}

/** cognito-local is chatty (stack traces for every wrong password); keep its start line and errors. */
function cognitoLog(log: (line: string) => void): (line: string) => void {
  if (process.env.CONVERSA_DEBUG) return log;
  return (line) => {
    if (/running on|ERROR|FATAL|failed to start/.test(line)) log(line);
  };
}

/** DynamoDB Local prints its configuration on every start; keep what is not that banner. */
function dynamoLog(log: (line: string) => void): (line: string) => void {
  if (process.env.CONVERSA_DEBUG) return log;
  return (line) => {
    if (
      !/Initializing DynamoDB Local|^\[dynamodb\] (Port|InMemory|Version|DbPath|SharedDb|shouldDelayTransientStatuses|CorsParams):/.test(
        line,
      )
    )
      log(line);
  };
}

function wsInvoker() {
  return async (event: Parameters<Parameters<typeof startWsGateway>[0]['invoke']>[0]) => {
    const handler = await loadHandler(handlerFile('ws', 'realtime'));
    return handler(event, lambdaContext('conversa-realtime'));
  };
}

async function seed(admin: { email: string; password: string; replacesPassword?: boolean }, log: (line: string) => void): Promise<void> {
  const file = join(repoRoot, 'infra', 'ops', 'seed.ts');
  const { seedPlatform } = (await import(file)) as typeof import('../ops/seed.ts');
  const result = await seedPlatform({ adminEmail: admin.email, adminPassword: admin.password, resetPassword: admin.replacesPassword });
  const found = result.created ? 'created' : admin.replacesPassword ? 'found (new password set)' : 'found';
  log(`[seed] ${found} company ${result.companyId} with super admin ${admin.email} (user ${result.userId})`);
}

/** The key the fake payment provider accepts; seeded as the platform's `asaas` setting when that is empty. */
export const LOCAL_ASAAS_KEY = '$aact_local_conversa';

async function seedPaymentKey(): Promise<void> {
  const { getSetting, putSetting } = await import('@conversa/functions/storage/settings');
  const { PLATFORM_COMPANY_ID } = await import('@conversa/functions/domain/billing/subscription');
  if (!(await getSetting(PLATFORM_COMPANY_ID, 'asaas'))) await putSetting(PLATFORM_COMPANY_ID, 'asaas', LOCAL_ASAAS_KEY);
}

function startSessionHost(env: Record<string, string>, log: (line: string) => void, onLine?: (line: string) => boolean | undefined): Child {
  return spawnChild({
    name: 'session-host',
    command: process.execPath,
    args: ['--import', 'tsx', join(repoRoot, 'session-host', 'src', 'main.ts')],
    cwd: repoRoot,
    env: { ...process.env, ...env },
    log,
    onLine,
  });
}

/**
 * The session-host child behind a stable Child (what stop() ends is whichever process runs now) and
 * the control tests use to kill and restart it.
 */
function sessionHostControl(env: Record<string, string>, log: (line: string) => void): { child: Child; control: SessionHostControl } {
  let startedWaiters: (() => void)[] = [];
  const onLine = (line: string) => {
    if (line.includes('session-host started')) {
      for (const wake of startedWaiters) wake();
      startedWaiters = [];
    }
    return undefined;
  };
  let current = startSessionHost(env, log, onLine);
  const running = () => current.process.exitCode === null && current.process.signalCode === null;
  const child: Child = {
    name: 'session-host',
    get process() {
      return current.process;
    },
    get exited() {
      return current.exited;
    },
    stop: () => current.stop(),
  };
  const control: SessionHostControl = {
    get pid() {
      return running() ? current.process.pid : undefined;
    },
    async kill(signal = 'SIGKILL') {
      const pid = current.process.pid;
      if (!running() || !pid) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // Already gone.
      }
      await current.exited;
    },
    async start() {
      if (running()) return;
      const started = new Promise<void>((resolve) => startedWaiters.push(resolve));
      current = startSessionHost(env, log, onLine);
      const outcome = await Promise.race([started.then(() => 'started' as const), current.exited]);
      if (outcome !== 'started') throw new Error(`session-host exited (code ${outcome}) before it started; see the stack log`);
    },
  };
  return { child, control };
}
