/**
 * Snooze presets on the company's clock (issue 22 §5 and issue 25 "One time zone"): "tomorrow 9:00"
 * is the company's 9:00, not the browser's. The process runs as a browser in Tokyo (TZ) while the
 * company is in São Paulo, 12 hours apart, so a preset computed on the runtime's clock would show.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { snoozePresets } from '../src/features/tickets/components/conversation/snooze-menu.tsx';
import { setCompanyTimeZone, toCompanyInput } from '../src/lib/company-time.ts';

beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterEach(() => setCompanyTimeZone(undefined));

describe('snooze presets', () => {
  it("wake at 9:00 on the company's clock, the next company day and the next Monday", () => {
    setCompanyTimeZone('America/Sao_Paulo');
    // Tuesday 1 Dec 2026, 17:00 in São Paulo (already Wednesday 05:00 in Tokyo).
    const now = new Date('2026-12-01T20:00:00Z');
    const presets = snoozePresets(now);
    expect(presets.oneHour.toISOString()).toBe('2026-12-01T21:00:00.000Z');
    expect(presets.tomorrow.toISOString()).toBe('2026-12-02T12:00:00.000Z');
    expect(toCompanyInput(presets.tomorrow)).toBe('2026-12-02T09:00');
    expect(presets.nextWeek.toISOString()).toBe('2026-12-07T12:00:00.000Z');
  });
});
