/**
 * Order of the integration files on their one shared stack: browser tests first, the session-host
 * crash test last. The crash test kills and restarts the session-host and retunes a queue for its
 * run; the files after it would otherwise inherit a host that is still retaking its leases.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const rank = (file: string): number => (file.includes('/tests/browser/') ? 0 : file.includes('whatsapp-crash') ? 2 : 1);

export default class IntegrationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}
