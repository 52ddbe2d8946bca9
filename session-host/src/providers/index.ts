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
  let module: { createBaileysProvider?: () => WhatsAppProvider | Promise<WhatsAppProvider> };
  try {
    module = (await import('./baileys/index.ts')) as typeof module;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('baileys/index')) {
      throw new Error(
        'session-host: SESSION_PROVIDER=baileys but session-host/src/providers/baileys/index.ts is not there; use SESSION_PROVIDER=simulator or add the Baileys provider',
      );
    }
    throw error;
  }
  if (typeof module.createBaileysProvider !== 'function') {
    throw new Error('session-host: providers/baileys/index.ts does not export createBaileysProvider()');
  }
  return module.createBaileysProvider();
}
