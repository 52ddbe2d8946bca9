/**
 * The local stack's pollers wait on its one stop signal thousands of times: no wait may leave a
 * listener on it once over, or they pile up for as long as `npm start` runs.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortableSleep, settledOrAborted } from '../local/abort.ts';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('waiting on the stop signal', () => {
  it('leaves no listener behind after a thousand waits that ended on their own', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 1000; i++) await settledOrAborted(Promise.resolve(), stop.signal);
    for (let i = 0; i < 1000; i++) await settledOrAborted(Promise.reject(new Error('failed batch')), stop.signal);
    for (let i = 0; i < 20; i++) await abortableSleep(1, stop.signal);
    expect(listeners(stop.signal)).toBe(0);
  });

  it('ends every wait at once when the signal aborts', async () => {
    const stop = new AbortController();
    const never = new Promise<void>(() => undefined);
    const started = Date.now();
    const waits = Promise.all([settledOrAborted(never, stop.signal), abortableSleep(60_000, stop.signal)]);
    expect(listeners(stop.signal)).toBe(2);
    stop.abort();
    await waits;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(listeners(stop.signal)).toBe(0);
    // Already aborted: no wait at all.
    await settledOrAborted(never, stop.signal);
    await abortableSleep(60_000, stop.signal);
  });
});
