/**
 * When a failed webhook delivery is tried again (issue 23 §2): exponential backoff with jitter, for
 * about a day. The n-th retry waits base × 3^(n-1) seconds (30 s, 90 s, 4.5 min, 13.5 min, 40 min,
 * 2 h, then every 4 h), capped at a sixth of the window, each wait drawn within ±20 % so that an
 * endpoint's deliveries that failed together (an outage) do not all come back in the same second.
 * The first retry comes within 36 s. A retry that would fall past the window's end (24 h after the
 * delivery, or its resend, started) is not made: the delivery is failed.
 *
 * The base and the window come from the environment (WEBHOOK_RETRY_BASE_SECONDS,
 * WEBHOOK_RETRY_WINDOW_SECONDS): the local stack shortens them so a developer (and a test) sees a
 * retry within seconds, through the same code.
 */

export interface RetryPolicy {
  baseSeconds: number;
  windowSeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseSeconds: 30, windowSeconds: 24 * 3600 };
export const RETRY_FACTOR = 3;
export const RETRY_JITTER = 0.2;

/** The wait before retry number `retry` (1 = the first retry), in whole seconds (at least 1). */
export function retryDelaySeconds(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = policy.baseSeconds * RETRY_FACTOR ** Math.max(0, retry - 1);
  const capped = Math.min(raw, policy.windowSeconds / 6);
  const jittered = capped * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random());
  return Math.max(1, Math.round(jittered));
}

/**
 * When to try again after `failedAttempts` attempts of the round that started at `roundStartedAt`
 * failed, or undefined when the window is spent.
 */
export function nextRetryAt(
  roundStartedAt: Date,
  failedAttempts: number,
  now: Date,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Date | undefined {
  const due = new Date(now.getTime() + retryDelaySeconds(failedAttempts, policy, random) * 1000);
  return due.getTime() > roundStartedAt.getTime() + policy.windowSeconds * 1000 ? undefined : due;
}

/** The policy the environment sets; a value that is not a positive number keeps the default. */
export function retryPolicyOf(vars: { base?: string; window?: string }): RetryPolicy {
  const positive = (text: string | undefined, fallback: number) => {
    const value = Number(text);
    return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    baseSeconds: positive(vars.base, DEFAULT_RETRY_POLICY.baseSeconds),
    windowSeconds: positive(vars.window, DEFAULT_RETRY_POLICY.windowSeconds),
  };
}
