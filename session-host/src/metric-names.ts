/**
 * The names of the session-host's custom metrics, in one place for the two sides that must agree:
 * the host publishes them (metrics.ts) and the CDK stack alarms and graphs them (infra/lib/monitoring.ts).
 * No imports, so the CDK app can read it without loading the host.
 * - OrphanSessions: per takeover scan, wanted sessions that no live host runs (their lease ran out or
 *   was released, or they are this host's own from before a restart); published as a statistic set
 *   over a minute's scans, alarmed on its Maximum.
 * - SendFailures: sends the host reported as `sendFailed`, one per send; graphed as a Sum.
 * Both are plain counts (Unit Count) without dimensions: hosts are interchangeable, and several hosts'
 * points simply aggregate (Maximum of what each saw, Sum of what each failed).
 */
export const SESSION_HOST_METRICS = {
  namespace: 'Conversa/SessionHost',
  orphanSessions: 'OrphanSessions',
  sendFailures: 'SendFailures',
} as const;
