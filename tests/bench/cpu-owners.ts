/**
 * Whose CPU "this process" is, in a bench that runs the handlers beside the local stand-ins and its
 * own driver in one Node process: a V8 sampling profile over the measured window (node:inspector),
 * each sample given to the innermost frame of the repository on its stack (the driver's, when any). The handlers' share is
 * what a deployed Lambda would spend; the stand-ins' (infra/local: the WebSocket gateway, SQS, the
 * Lambda runtime) and the driver's are this machine's alone. A sample with no frame of ours on its
 * stack (an SDK's response parsed after an await, a socket read, the garbage collector) goes to the
 * innermost library on it, else to Node itself: @aws-sdk and @smithy are the handlers' clients (the
 * stand-ins are servers; the driver's meters read through the same clients only after the window).
 * The profiler costs a few percent of CPU itself: compare runs that both have it, or neither.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const DRIVER = 'bench driver and meters (tests)';
const OWNERS: [prefix: string, owner: string][] = [
  ['functions/src/', 'handlers (functions/src)'],
  ['session-host/src/', 'session-host'],
  ['infra/local/', 'local stand-ins (infra/local)'],
  ['tests/', DRIVER],
];

function ownerOfUrl(url: string): string | undefined {
  const path = url.replace(/^file:\/\//, '');
  if (!path.startsWith(repoRoot) || path.includes('/node_modules/')) return undefined;
  const inRepo = path.slice(repoRoot.length + 1);
  return OWNERS.find(([prefix]) => inRepo.startsWith(prefix))?.[1];
}

function libraryOf(url: string): string {
  const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (!match) return url ? 'node internals' : 'native, gc';
  const name = match[1] as string;
  return name.startsWith('@aws-sdk/') || name.startsWith('@smithy/') ? 'handlers (AWS SDK, after an await)' : `library ${name}`;
}

export interface CpuOwners {
  /** Stops the profile; CPU ms by owner over the window, busiest first. */
  stop(): Promise<[owner: string, ms: number][]>;
}

export async function profileCpuOwners(): Promise<CpuOwners> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      session.disconnect();
      // The whole profile too, for Chrome's DevTools or a closer look: BENCH_CPU_PROFILE=file.cpuprofile
      if (process.env.BENCH_CPU_PROFILE) writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(profile));
      return cpuByOwner(profile);
    },
  };
}

/** CPU ms by owner in a V8 profile, busiest first. */
export function cpuByOwner(profile: Profile): [owner: string, ms: number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const owners = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === '(idle)') return;
    let owner: string | undefined;
    let library: string | undefined;
    for (let at: number | undefined = id; at !== undefined && owner !== DRIVER; at = parentOf.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      // The driver's code anywhere on the stack makes it the driver's (its socket client parses
      // frames with the product's contracts; its meters run inside the handlers' SDK clients).
      const mine = ownerOfUrl(url);
      if (mine === DRIVER || (mine && !owner)) owner = mine;
      if (!library && url.includes('/node_modules/')) library = url;
    }
    owner ??= libraryOf(library ?? leaf.callFrame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...owners].sort((a, b) => b[1] - a[1]);
}
