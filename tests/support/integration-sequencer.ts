/**
 * Order of the integration files on their one shared stack: browser tests first, the files that kill
 * and restart the session-host last (delivery, then the crash test, which also retunes a queue for
 * its run). A file after them would inherit a host still retaking every earlier tenant's session: a
 * full run saw thread-activity's new connection show no QR within 45 s right after whatsapp-delivery.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const rank = (file: string): number => {
  if (file.includes('/tests/browser/')) return 0;
  if (file.includes('whatsapp-delivery')) return 2;
  if (file.includes('whatsapp-crash')) return 3;
  return 1;
};

export default class IntegrationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}
