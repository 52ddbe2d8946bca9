/**
 * The app is built once and deployed per region: endpoints come from `/config.json` at boot (served by
 * the local stack and by CloudFront), not from build-time constants. VITE_* variables are a fallback
 * for `vite dev` without a stack proxy.
 */
export interface RuntimeConfig {
  apiUrl: string;
  wsUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Set locally (cognito-local); absent in AWS. */
  userPoolEndpoint?: string;
}

let current: RuntimeConfig | undefined;

function fromEnv(): RuntimeConfig | undefined {
  const env = import.meta.env;
  if (!env.VITE_API_URL || !env.VITE_USER_POOL_ID || !env.VITE_USER_POOL_CLIENT_ID) return undefined;
  return {
    apiUrl: env.VITE_API_URL,
    wsUrl: env.VITE_WS_URL ?? '',
    region: env.VITE_REGION ?? 'us-east-1',
    userPoolId: env.VITE_USER_POOL_ID,
    userPoolClientId: env.VITE_USER_POOL_CLIENT_ID,
    userPoolEndpoint: env.VITE_USER_POOL_ENDPOINT || undefined,
  };
}

export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const envConfig = fromEnv();
  if (envConfig) {
    current = envConfig;
    return envConfig;
  }
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: HTTP ${response.status}`);
  const config = (await response.json()) as RuntimeConfig;
  current = { ...config, apiUrl: config.apiUrl.replace(/\/$/, '') };
  return current;
}

export function runtimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime config read before loadRuntimeConfig()');
  return current;
}
