/**
 * Ports of the local stack. `npm start` uses fixed defaults (so bookmarks and the web app's
 * config survive restarts), each overridable by an env var; tests pick free ports (freePort).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Ports {
  web: number;
  api: number;
  ws: number;
  /** The Cognito endpoint everything uses: the gap-filling proxy in front of cognito-local. */
  cognito: number;
  /** cognito-local itself; its URL is the tokens' issuer. */
  cognitoUpstream: number;
  dynamodb: number;
  s3: number;
  sqs: number;
  /** CloudWatch's PutMetricData, where the session-host publishes its metrics. */
  cloudwatch: number;
  /** The WhatsApp simulator (phone network, control API, chat page). */
  simulator: number;
  /** The fake payment provider (Asaas' API subset, its page and control API). */
  paymentProvider: number;
  /** The fake bot providers (OpenAI, Typebot, webhook/n8n, Dialogflow: infra/local/bot-fakes). */
  botFakes: number;
  /** SES's SendEmail, where the mails the product sends (password-reset codes) are kept: infra/local/mail-sink.ts. */
  mail: number;
}

export const defaultPorts: Ports = {
  web: 3000,
  api: 3001,
  ws: 3002,
  cognito: 9229,
  cognitoUpstream: 9230,
  dynamodb: 8000,
  s3: 4568,
  sqs: 4566,
  cloudwatch: 4582,
  simulator: 3003,
  paymentProvider: 3004,
  botFakes: 3005,
  mail: 4579,
};

/** `CONVERSA_PORT_WEB=8080 npm start` and so on; the env var name is the upper-cased key. */
export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): Ports {
  const ports = { ...defaultPorts };
  for (const key of Object.keys(ports) as (keyof Ports)[]) {
    const raw = env[`CONVERSA_PORT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`];
    if (raw === undefined || raw === '') continue;
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port in env for ${key}: ${raw}`);
    ports[key] = port;
  }
  return ports;
}

/** Below the well-known and registered ports most services take; freePort picks from here up. */
export const LOWEST_PICKED = 10_000;

/**
 * Ports in the picked range that fetch (Node's too) and browsers refuse to connect to: the Fetch
 * standard's "bad ports" at 10,000 and up. A run lost a unit file to one: cognito-local listened on
 * 10080 and its health check's fetch failed for 60 s.
 */
export const BAD_PORTS: ReadonlySet<number> = new Set([10080]);

/** Binds `port` on 127.0.0.1 and lets it go: whether a server could listen there now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The kernel's range for ports it picks itself (outgoing connections, listen(0)); Linux's default elsewhere. */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST_PICKED + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A port free now, for a server that binds it a moment later. Not one the OS picks (listen(0)): those
 * come from the range it also gives outgoing connections, and a stack opens hundreds while it starts
 * (SDK clients, the JVM, Chromium), so one could take the port between this check and the bind (a run
 * saw the socket gateway fail with EADDRINUSE). A random port below that range, checked by binding
 * it, can only be taken by another server; `taken` keeps one caller's picks distinct.
 */
export async function freePort(taken: ReadonlySet<number> = new Set()): Promise<number> {
  const high = ephemeralLow();
  for (let tries = 0; tries < 100; tries++) {
    const port = LOWEST_PICKED + Math.floor(Math.random() * (high - LOWEST_PICKED));
    if (!taken.has(port) && !BAD_PORTS.has(port) && (await canBind(port))) return port;
  }
  throw new Error(`No free port between ${LOWEST_PICKED} and ${high} after 100 tries`);
}

export async function resolvePorts(ports: Partial<Ports> | 'auto' | undefined): Promise<Ports> {
  if (ports === 'auto') {
    const picked = new Set<number>();
    const auto = {} as Ports;
    for (const key of Object.keys(defaultPorts) as (keyof Ports)[]) {
      auto[key] = await freePort(picked);
      picked.add(auto[key]);
    }
    return auto;
  }
  return { ...defaultPorts, ...ports };
}

/** Fails with a clear message when something else already listens where we want to. */
export function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} (${what}) is already in use. Stop whatever uses it, or set another port (see infra/local/ports.ts).`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}
