/**
 * Latency as a client apart from the load sees it: `/api/health` and one conversion's status read
 * every 100 ms, from a process of its own so that the load's own client work (building and sending
 * uploads, polling histories) never delays a probe. Started by `startLatencyProbe`; the parent
 * sends `{ target }` once a conversion exists and `{ stop: true }` at the end, and gets the samples.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ProbeTarget {
  token: string;
  id: string;
}

/** One probe: when it was sent (epoch ms, comparable across processes) and how long the answer took. */
export interface LatencySample {
  at: number;
  ms: number;
}

export interface LatencySamples {
  health: LatencySample[];
  statusReads: LatencySample[];
}

type ParentMessage = { target: ProbeTarget } | { stop: true };

const INTERVAL_MS = 100;

export interface LatencyProbe {
  /** The conversion whose status the probe reads from now on. */
  target(target: ProbeTarget): void;
  /** Ends the probing and resolves with every sample taken (milliseconds). */
  stop(): Promise<LatencySamples>;
}

/** Starts probing `url` in a child process (this file, run through tsx). */
export function startLatencyProbe(url: string): LatencyProbe {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [url], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const samples = new Promise<LatencySamples>((resolve, reject) => {
    child.once('message', (m) => resolve(m as LatencySamples));
    child.once('exit', (code) => reject(new Error(`the latency probe ended (${code}) before sending its samples`)));
  });
  return {
    target: (target) => child.send({ target } satisfies ParentMessage),
    stop: async () => {
      child.send({ stop: true } satisfies ParentMessage);
      return samples;
    },
  };
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<LatencySample> {
  const at = Date.now();
  const t = performance.now();
  await fetch(url, { headers }).then((r) => r.arrayBuffer());
  return { at, ms: performance.now() - t };
}

async function probeUntilStopped(url: string): Promise<void> {
  const samples: LatencySamples = { health: [], statusReads: [] };
  let target: ProbeTarget | undefined;
  let probing = true;
  process.on('message', (m: ParentMessage) => {
    if ('target' in m) target = m.target;
    else probing = false;
  });
  while (probing) {
    samples.health.push(await timed(`${url}/api/health`));
    // A turn for fetch to take the connection back: the status read then goes on it, as a
    // client's polls go on its kept-alive connection. Without it each round's first status read
    // opened a connection in the middle of the burst, and that read (two more turns of a busy
    // event loop: the accept, then the first read) was the round's slowest in most rounds.
    await new Promise((r) => setImmediate(r));
    if (target) samples.statusReads.push(await timed(`${url}/api/conversion/status/${target.id}`, { authorization: `Bearer ${target.token}` }));
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
  process.send!(samples, () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) void probeUntilStopped(process.argv[2]!);
