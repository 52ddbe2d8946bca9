/**
 * Realtime notification for company-scoped changes. The publisher module belongs to the realtime
 * layer; it is loaded lazily so a failed or missing publisher only logs and never fails the write
 * that already succeeded (the change is stored; clients also refetch on reconnect).
 */
import { logger } from '#commons/logger';

type Publish = (companyId: number, event: string, data: unknown) => Promise<unknown>;
let publisher: Promise<Publish | undefined> | undefined;

const PUBLISHER_MODULE = '#realtime/publisher';

function loadPublisher(): Promise<Publish | undefined> {
  publisher ??= import(/* @vite-ignore */ PUBLISHER_MODULE)
    .then((mod: { publishToCompany?: Publish }) => mod.publishToCompany)
    .catch((error: unknown) => {
      logger.warn('Realtime publisher unavailable', { error: String(error) });
      return undefined;
    });
  return publisher;
}

export async function publishToCompany(companyId: number, event: string, data: unknown): Promise<void> {
  try {
    const publish = await loadPublisher();
    if (!publish) return;
    await publish(companyId, event, data);
  } catch (error) {
    logger.warn('Realtime publish failed', { companyId, event, error: String(error) });
  }
}
