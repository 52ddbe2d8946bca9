/**
 * Picks the provider named by SESSION_PROVIDER. Baileys is imported only when asked for: it is heavy
 * (WASM, protobufs) and the simulator never needs it.
 */
import type { HostConfig } from '../config.ts';
import type { WhatsAppProvider } from '../provider.ts';
import { createSimulatorProvider } from './simulator.ts';

export async function loadProvider(config: Pick<HostConfig, 'provider' | 'simulatorUrl'>): Promise<WhatsAppProvider> {
  if (config.provider === 'simulator') {
    if (!config.simulatorUrl) throw new Error('session-host: the simulator provider needs SIMULATOR_URL');
    return createSimulatorProvider({ url: config.simulatorUrl });
  }
  // A literal specifier, so the image's esbuild bundle includes it (lazily evaluated all the same).
  const { createBaileysProvider } = await import('./baileys/index.ts');
  return createBaileysProvider();
}
