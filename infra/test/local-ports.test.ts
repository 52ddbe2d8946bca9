/**
 * The ports a test stack picks for its servers: every one must be reachable by the clients that
 * call it, Node's fetch and Chromium among them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BAD_PORTS, ephemeralLow, freePort, LOWEST_PICKED } from '../local/ports.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('freePort', () => {
  it('never picks a port fetch refuses, even when the draw lands on it', async () => {
    const [bad] = [...BAD_PORTS];
    await expect(fetch(`http://127.0.0.1:${bad}/`)).rejects.toMatchObject({ cause: { message: 'bad port' } });
    // The draw is LOWEST_PICKED + random * span: aim it at the bad port first, then anywhere.
    const span = ephemeralLow() - LOWEST_PICKED;
    const draws = [(bad! - LOWEST_PICKED + 0.5) / span, 0.5];
    vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.25);
    const port = await freePort();
    expect(port).not.toBe(bad);
    expect(draws).toHaveLength(0);
  });
});
