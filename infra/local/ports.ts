/**
 * Ports of the local stack. `npm start` uses fixed defaults (so bookmarks and the web app's
 * config survive restarts), each overridable by an env var; tests ask the OS for free ports.
 */
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

/** A port the OS says is free now. Children we spawn need a number up front, unlike in-process servers. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function resolvePorts(ports: Partial<Ports> | 'auto' | undefined): Promise<Ports> {
  if (ports === 'auto') {
    const entries = await Promise.all((Object.keys(defaultPorts) as (keyof Ports)[]).map(async (key) => [key, await freePort()] as const));
    return Object.fromEntries(entries) as unknown as Ports;
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
