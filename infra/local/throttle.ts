/**
 * API Gateway's throttling for the local gateways: a token bucket of `burst` tokens refilled at
 * `perSecond`, and one bucket per route key at the figures the stack deploys
 * (functions/src/declarations/api-throttles.ts).
 */
import type { RouteThrottle } from '@conversa/functions/declarations/api-throttles';

export interface TokenBucket {
  /** Takes a token; false (the request is refused) when none is left. */
  take(): boolean;
}

export function tokenBucket(perSecond: number, burst: number, now: () => number = () => performance.now()): TokenBucket {
  let tokens = burst;
  let last = now();
  return {
    take() {
      const at = now();
      tokens = Math.min(burst, tokens + ((at - last) * perSecond) / 1000);
      last = at;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** One bucket per route key, made on its first request with that key's throttle. */
export function routeBuckets(throttleOf: (routeKey: string) => RouteThrottle): { take(routeKey: string): boolean } {
  const buckets = new Map<string, TokenBucket>();
  return {
    take(routeKey) {
      let bucket = buckets.get(routeKey);
      if (!bucket) {
        const { rateLimit, burstLimit } = throttleOf(routeKey);
        bucket = tokenBucket(rateLimit, burstLimit);
        buckets.set(routeKey, bucket);
      }
      return bucket.take();
    },
  };
}
