/**
 * The simulator as its own process (it must outlive session-host restarts):
 *   SIMULATOR_PORT=3003 tsx session-host/src/simulator/main.ts
 * Prints `simulator listening on <url>` once ready.
 */
import { startSimulator } from './server.ts';

const simulator = await startSimulator({
  port: Number(process.env.SIMULATOR_PORT ?? 3003),
  host: process.env.SIMULATOR_HOST ?? '127.0.0.1',
  autoAckMs: process.env.SIMULATOR_AUTO_ACK_MS ? Number(process.env.SIMULATOR_AUTO_ACK_MS) : undefined,
});
process.stdout.write(`simulator listening on ${simulator.url}\n`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void simulator.close().finally(() => process.exit(0));
  });
}
