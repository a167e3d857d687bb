/**
 * Where a server process's CPU went: the V8 profiles that `node --cpu-prof` writes (one per
 * thread: the main thread and each worker thread) summed by self time — per thread, per
 * dependency (node_modules/<package>) or the server's own bundle, and the functions that cost
 * most.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time in ms by node id. */
function selfTimes(p: Profile): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  return self;
}

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node core';
  const file = url.split('/').pop()!;
  return file.endsWith('.js') ? `bundle ${file}` : file;
}

/** A stretch of the event loop this long without an idle sample delays every request waiting behind it. */
const LONG_TASK_MS = 50;

/**
 * The main thread's long tasks: stretches of consecutive non-idle samples of LONG_TASK_MS or more
 * (a request arriving then waits that long), and which functions and areas filled them (self time).
 */
function longTasks(p: Profile, nodes: Map<number, ProfileNode>): { durations: number[]; byFunction: Map<string, number> } {
  const durations: number[] = [];
  const byFunction = new Map<string, number>();
  let stretch: Array<[number, number]> = [];
  const close = () => {
    const ms = stretch.reduce((n, [, t]) => n + t, 0);
    if (ms >= LONG_TASK_MS) {
      durations.push(ms);
      for (const [id, t] of stretch) {
        const f = nodes.get(id)!.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${areaOf(f.url, f.functionName)}${f.url ? `:${f.lineNumber + 1}` : ''}`;
        byFunction.set(key, (byFunction.get(key) ?? 0) + t);
      }
    }
    stretch = [];
  };
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i]!;
    // A sample's delta is the time since the previous one: it belongs to the stretch it ends.
    if (nodes.get(id)!.callFrame.functionName === '(idle)') close();
    else stretch.push([id, (p.timeDeltas[i] ?? 0) / 1000]);
  }
  close();
  return { durations, byFunction };
}

/** Lines for a report from every profile in `dir`: the main thread's and the worker threads' apart. */
export function summariseProfiles(dir: string, top = 20): string[] {
  const lines: string[] = [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  // CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile: thread 0 is the main thread.
  const threadOf = (file: string) => (file.split('.')[4] === '0' ? 'main thread' : 'worker threads');
  for (const thread of ['main thread', 'worker threads']) {
    const byArea = new Map<string, number>();
    const byFunction = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    let busy = 0;
    for (const file of files.filter((f) => threadOf(f) === thread)) {
      const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
      const nodes = new Map(p.nodes.map((n) => [n.id, n]));
      for (const [id, ms] of selfTimes(p)) {
        const f = nodes.get(id)!.callFrame;
        if (f.functionName === '(idle)') continue;
        busy += ms;
        const area = areaOf(f.url, f.functionName);
        add(byArea, area, ms);
        add(byFunction, `${f.functionName || '(anonymous)'} ${area}${f.url ? `:${f.lineNumber + 1}` : ''}`, ms);
      }
    }
    if (busy === 0) continue;
    if (thread === 'main thread') lines.push(...longTaskLines(dir, files.filter((f) => threadOf(f) === thread)));
    const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)} %`;
    lines.push(`  ${thread}: ${(busy / 1000).toFixed(1)} s on CPU; by area (self time):`);
    for (const [k, ms] of [...byArea.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`    ${pct(ms)}  ${k}`);
    lines.push(`  ${thread}: by function (self time):`);
    for (const [k, ms] of [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(ms)}  ${k}`);
  }
  return lines;
}

function longTaskLines(dir: string, files: string[]): string[] {
  const durations: number[] = [];
  const byFunction = new Map<string, number>();
  for (const file of files) {
    const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const found = longTasks(p, new Map(p.nodes.map((n) => [n.id, n])));
    durations.push(...found.durations);
    for (const [k, ms] of found.byFunction) byFunction.set(k, (byFunction.get(k) ?? 0) + ms);
  }
  if (durations.length === 0) return [`  main thread: no task held the event loop ${LONG_TASK_MS} ms or more`];
  durations.sort((a, b) => b - a);
  const total = durations.reduce((a, b) => a + b, 0);
  const lines = [
    `  main thread: ${durations.length} tasks held the event loop ${LONG_TASK_MS} ms or more (${(total / 1000).toFixed(1)} s together; longest ${durations.slice(0, 5).map((d) => d.toFixed(0)).join(', ')} ms); what filled them (self time):`,
  ];
  for (const [k, ms] of [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`    ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  return lines;
}
