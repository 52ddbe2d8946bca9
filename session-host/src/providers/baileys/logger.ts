/**
 * Baileys wants a pino-shaped logger. The host logs JSON lines to stdout (CloudWatch on Fargate);
 * Baileys is chatty at debug/trace, so only warnings and errors are written unless BAILEYS_LOG_LEVEL
 * says otherwise.
 */

/** Baileys' `ILogger` (not exported from the package root). */
export interface ILogger {
  level: string;
  child(obj: Record<string, unknown>): ILogger;
  trace(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = (typeof LEVELS)[number];

export function jsonLogger(level: string = process.env.BAILEYS_LOG_LEVEL ?? 'warn', bindings: Record<string, unknown> = {}): ILogger {
  const threshold = LEVELS.indexOf((LEVELS as readonly string[]).includes(level) ? (level as Level) : 'warn');
  const write = (at: Level) => (obj: unknown, msg?: string) => {
    if (LEVELS.indexOf(at) < threshold) return;
    const fields =
      obj instanceof Error ? { err: { message: obj.message, stack: obj.stack } } : typeof obj === 'object' && obj ? obj : { msg: obj };
    const line = JSON.stringify({ level: at, time: new Date().toISOString(), ...bindings, ...fields, ...(msg ? { msg } : {}) }, (_k, v) =>
      v instanceof Error ? { message: v.message, stack: v.stack } : typeof v === 'bigint' ? v.toString() : v,
    );
    (at === 'error' || at === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    level,
    child: (more) => jsonLogger(level, { ...bindings, ...more }),
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}
