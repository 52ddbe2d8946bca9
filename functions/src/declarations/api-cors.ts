/**
 * The HTTP API's CORS, declared once: the CDK stack sets it on the API (API Gateway answers the
 * preflights and adds the headers to every answer) and the local gateway answers the same, so a
 * browser call AWS would refuse is refused locally too.
 *
 * Origins: the region's web app only (its origin, from the stack; the local stack's web server, as
 * `localhost` or `127.0.0.1`). Headers a browser may send beyond the simple ones: the session token,
 * JSON, and the external API's `Idempotency-Key`. Headers a browser may read: the external API's
 * rate window and replay mark (issue 23 §3), so the Messages API page can show them.
 */
export const API_CORS = {
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
  exposeHeaders: ['idempotent-replayed', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'],
  maxAgeSeconds: 86_400,
} as const;
