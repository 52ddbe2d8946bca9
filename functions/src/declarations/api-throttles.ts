/**
 * API Gateway's route-level throttles, declared once: the CDK stack sets them on the two APIs'
 * stages and the local gateways enforce them, so a request AWS would refuse is refused locally too.
 * Each route key has its own token bucket at these figures, and every route draws on the account's
 * own limit as well (10,000 requests a second and a burst of 5,000 per Region, shared by the HTTP
 * API, the WebSocket API's messages and every `@connections` post); a route's figure may not exceed it.
 *
 * Sized for one region's goal (issue 15), not for a demo: 1,000 inbound messages a second answered by
 * attendants (the busiest HTTP route, sending a reply, near 1,000 a second) and 100k open sockets,
 * each pinging every 18 s (SPEC 9): 5,556 pings a second on the one `ping` route key. A stage-wide
 * 100 a second, the first stack's figure, would have refused the pings of any region past 1,800
 * sockets and every reply past 200 a second.
 */
import { SOCKET_PING_INTERVAL_MS } from '../contracts/channels.ts';

export interface RouteThrottle {
  /** Steady requests a second (the bucket's refill). */
  rateLimit: number;
  /** Requests at once when the bucket is full. */
  burstLimit: number;
}

/** The account's own throttle per Region (Service Quotas: "Throttle: requests per second", "burst"). */
export const ACCOUNT_THROTTLE: RouteThrottle = { rateLimit: 10_000, burstLimit: 5_000 };

/** Every HTTP API route. */
export const HTTP_ROUTE_THROTTLE: RouteThrottle = { rateLimit: 2_000, burstLimit: 4_000 };

/** Every WebSocket route key but `ping` (joins, leaves, userStatus every 5 minutes, $default). */
export const WS_ROUTE_THROTTLE: RouteThrottle = { rateLimit: 2_000, burstLimit: 4_000 };

/** Sockets one region is sized for (issue 15). */
export const REGION_SOCKETS = 100_000;

/** `ping`: every open socket once a SOCKET_PING_INTERVAL_MS, with room for 40 % more sockets. */
export const WS_PING_THROTTLE: RouteThrottle = {
  rateLimit: Math.ceil((REGION_SOCKETS * 1.4) / (SOCKET_PING_INTERVAL_MS / 1000) / 1000) * 1000,
  burstLimit: ACCOUNT_THROTTLE.burstLimit,
};

/** The throttle of one WebSocket route key. */
export const wsRouteThrottle = (routeKey: string): RouteThrottle => (routeKey === 'ping' ? WS_PING_THROTTLE : WS_ROUTE_THROTTLE);
