/**
 * How many more sessions this host can hold, from its memory.
 *
 * The limit is the container's: cgroup v2 `memory.max`, else cgroup v1 `memory.limit_in_bytes`, else
 * (no limit, or not Linux) the machine's total memory. What is used is the process's RSS, not the
 * cgroup's `memory.current`/`usage_in_bytes`: those count the page cache, which the kernel gives
 * back under pressure, so they would call a host full that is not. The host may fill `budgetFraction`
 * of the limit (the rest is headroom for a history sync or a burst of media); room is what is left
 * of that budget divided by what one more session costs.
 *
 * What a session costs: `sessionEstimateBytes` (configured: bench:session-host's goal per idle
 * session) until the host runs `MEASURE_FROM_SESSIONS` sessions, then what its own sessions measure,
 * (RSS now - RSS before the first session) / sessions, never below `MIN_SESSION_BYTES`. Room falls
 * to 0 as RSS reaches the budget whatever the estimate, so a low estimate cannot overfill a host.
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';

export interface MemoryReading {
  /** What the container may use (bytes). */
  limitBytes: number;
  /** What this process holds (RSS, bytes). */
  rssBytes: number;
}

export interface HostCapacity {
  /** Sessions this host can still take while running `sessions`; 0 when full. */
  room(sessions: number): number;
  /** The figures behind `room`, for the heartbeat item and the logs. */
  reading(sessions: number): MemoryReading & { budgetBytes: number; sessionBytes: number; room: number };
}

export interface CapacityOptions {
  /** Share of the limit the host fills with sessions (0-1]. */
  budgetFraction: number;
  /** Cost of one session until the host has measured its own (bytes). */
  sessionEstimateBytes: number;
  /** Reads the memory (tests pass figures; default: cgroup files and the process). */
  read?: () => MemoryReading;
}

const MIB = 1024 * 1024;
/** Below this many sessions, the measured cost per session is mostly noise (GC, buffers). */
export const MEASURE_FROM_SESSIONS = 5;
export const MIN_SESSION_BYTES = MIB;
/** cgroup v1 writes a page-rounded 2^63 when there is no limit. */
const NO_LIMIT = 2 ** 60;

/** The container's memory limit from the cgroup files under `root`, or undefined when there is none. */
export function cgroupLimitBytes(root = '/sys/fs/cgroup'): number | undefined {
  for (const file of [join(root, 'memory.max'), join(root, 'memory', 'memory.limit_in_bytes')]) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    const value = Number(text);
    // "max" (v2) or a huge number (v1): unlimited, the machine's memory is the limit.
    return Number.isFinite(value) && value > 0 && value < NO_LIMIT ? value : undefined;
  }
  return undefined;
}

/** A container's limit does not change while it runs: read once. */
let limitBytes: number | undefined;

export function readProcessMemory(): MemoryReading {
  limitBytes ??= Math.min(cgroupLimitBytes() ?? totalmem(), totalmem());
  return { limitBytes, rssBytes: process.memoryUsage.rss() };
}

export function createCapacity(opts: CapacityOptions): HostCapacity {
  const read = opts.read ?? readProcessMemory;
  /** RSS with no session: the last reading taken while the host ran none. */
  let baselineRss: number | undefined;

  function reading(sessions: number) {
    const memory = read();
    if (sessions === 0) baselineRss = memory.rssBytes;
    const measured =
      sessions >= MEASURE_FROM_SESSIONS && baselineRss !== undefined ? (memory.rssBytes - baselineRss) / sessions : undefined;
    const sessionBytes = measured === undefined ? opts.sessionEstimateBytes : Math.max(measured, MIN_SESSION_BYTES);
    const budgetBytes = memory.limitBytes * opts.budgetFraction;
    const room = Math.max(0, Math.floor((budgetBytes - memory.rssBytes) / sessionBytes));
    return { ...memory, budgetBytes, sessionBytes, room };
  }

  return { reading, room: (sessions) => reading(sessions).room };
}

/** Room without limit: hosts built without a capacity (tests about something else). */
export const unlimitedCapacity: HostCapacity = {
  room: () => Number.MAX_SAFE_INTEGER,
  reading: () => ({ limitBytes: 0, rssBytes: 0, budgetBytes: 0, sessionBytes: 0, room: Number.MAX_SAFE_INTEGER }),
};
