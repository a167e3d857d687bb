/**
 * First load of the dashboard's /converter (signed in, empty cache) in Debian's Chromium
 * (playwright-core, DevTools protocol), throttled like Lighthouse's presets, and a
 * Lighthouse-style performance score computed from the metrics with Lighthouse's published
 * scoring (a log-normal curve per metric from its p10 and median, weighted; v10+ weights).
 * The `lighthouse` package itself is not used: this keeps the bench free of a large dependency
 * and runs offline with the system Chromium.
 *
 *   npx tsx bench/dashboard-perf.ts [--preset desktop|mobile|both] [--runs 3] [--path /converter] [--dashboard-dir DIR] [--waterfall]
 *
 * --dashboard-dir serves another build (e.g. a copy of an older dist/) instead of packages/dashboard/dist.
 * --waterfall prints each run's requests (start and end from the navigation, bytes on the wire),
 * its long tasks and its LCP element: what the first paint and the largest one waited for.
 *
 * Throttling is applied (DevTools), with the figures Lighthouse itself applies in its
 * "devtools" mode: mobile = slow 4G (562.5 ms request latency, 1.47 Mbps down, 675 kbps up) and
 * 4× CPU slowdown on a 412×823 screen at 1.75×; desktop = 40 ms, 10 Mbps, no CPU slowdown,
 * 1350×940. Metrics: FCP and LCP (paint timeline), TBT (long tasks after FCP, beyond 50 ms
 * each), CLS (largest session window of layout shifts), Speed Index (screencast frames'
 * colour histograms against the last frame, as speedline computes visual progress).
 * Also printed: JavaScript bytes on the wire (compressed), requests, and the headers the
 * scripts came with (CSP of the page, Cache-Control and Content-Encoding of the chunks).
 */
import { inflateSync } from 'node:zlib';
import { cpus, loadavg } from 'node:os';
import { chromium, type CDPSession } from 'playwright-core';
import { startTestCluster, stopTestCluster } from '../packages/server/test/helpers/postgres.js';
import { startTestServer } from '../packages/server/test/helpers/server.js';
import { buildAdmin, buildSubscriber } from '../packages/server/test/helpers/factories.js';
import { CHROMIUM_PATH, ensureDashboardBuilt } from '../packages/server/test/helpers/browser.js';
import { sessionOf } from '../packages/server/test/e2e/dashboardHelpers.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const presetArg = arg('preset', 'both');
const runs = Number(arg('runs', '3'));
const path = arg('path', '/converter');
const dashboardDir = arg('dashboard-dir', '');
const waterfall = process.argv.includes('--waterfall');

interface Curve {
  p10: number;
  median: number;
  weight: number;
}
interface Preset {
  name: 'mobile' | 'desktop';
  viewport: { width: number; height: number; deviceScaleFactor: number; isMobile: boolean };
  latencyMs: number;
  downloadKbps: number;
  uploadKbps: number;
  cpuSlowdown: number;
  curves: Record<'fcp' | 'si' | 'lcp' | 'tbt' | 'cls', Curve>;
}

// Lighthouse 10–12 (core/config/constants.js throttling, the metric audits' scoring options, default-config weights).
const PRESETS: Preset[] = [
  {
    name: 'mobile',
    viewport: { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true },
    latencyMs: 150 * 3.75,
    downloadKbps: 1.6 * 1024 * 0.9,
    uploadKbps: 750 * 0.9,
    cpuSlowdown: 4,
    curves: {
      fcp: { p10: 1800, median: 3000, weight: 0.1 },
      si: { p10: 3387, median: 5800, weight: 0.1 },
      lcp: { p10: 2500, median: 4000, weight: 0.25 },
      tbt: { p10: 200, median: 600, weight: 0.3 },
      cls: { p10: 0.1, median: 0.25, weight: 0.25 },
    },
  },
  {
    name: 'desktop',
    viewport: { width: 1350, height: 940, deviceScaleFactor: 1, isMobile: false },
    latencyMs: 40,
    downloadKbps: 10 * 1024,
    uploadKbps: 10 * 1024,
    cpuSlowdown: 1,
    curves: {
      fcp: { p10: 934, median: 1600, weight: 0.1 },
      si: { p10: 1311, median: 2300, weight: 0.1 },
      lcp: { p10: 1200, median: 2400, weight: 0.25 },
      tbt: { p10: 150, median: 350, weight: 0.3 },
      cls: { p10: 0.1, median: 0.25, weight: 0.25 },
    },
  },
];

/** Abramowitz–Stegun 7.1.26, as Lighthouse's statistics.js. */
function erf(x: number): number {
  const sign = Math.sign(x);
  x = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * x);
  const y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - y * Math.exp(-x * x));
}

/** Lighthouse's getLogNormalScore: 0.9 at p10, 0.5 at the median. */
function logNormalScore({ p10, median }: Curve, value: number): number {
  if (value <= 0) return 1;
  const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;
  const standardizedX = (Math.log(Math.max(Number.MIN_VALUE, value / median)) * INVERSE_ERFC_ONE_FIFTH) / -Math.log(Math.max(Number.MIN_VALUE, p10 / median));
  const p = (1 - erf(standardizedX)) / 2;
  const score = value <= p10 ? Math.max(0.9, Math.min(1, p)) : value <= median ? Math.max(0.5, Math.min(0.8999999999999999, p)) : Math.max(0, Math.min(0.49999999999999994, p));
  return Math.round(score * 100) / 100;
}

/** RGB(A) 8-bit PNG (what the screencast sends) → a 256-bin histogram per colour channel. */
function pngHistogram(png: Buffer): number[][] {
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('PNG: only 8-bit, non-interlaced');
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      if (!channels) throw new Error(`PNG colour type ${data[9]}`);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const hist = [new Array<number>(256).fill(0), new Array<number>(256).fill(0), new Array<number>(256).fill(0)];
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let v = line[i]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = v & 0xff;
    }
    for (let x = 0; x < width; x++) for (let ch = 0; ch < 3; ch++) hist[ch]![line[x * channels + ch]!]!++;
    prev = line;
  }
  return hist;
}

/** speedline's visual progress: how far a frame's histograms went from the first to the last frame's. */
function visualProgress(frame: number[][], first: number[][], last: number[][]): number {
  let total = 0;
  let left = 0;
  for (let ch = 0; ch < 3; ch++) {
    for (let i = 0; i < 256; i++) {
      total += Math.abs(first[ch]![i]! - last[ch]![i]!);
      left += Math.abs(frame[ch]![i]! - last[ch]![i]!);
    }
  }
  return total === 0 ? 1 : Math.max(0, Math.min(1, 1 - left / total));
}

/** Collected in the page from its first script on (an init script). */
const OBSERVERS = `(() => {
  const m = (window.__perf = { fcp: 0, lcp: 0, shifts: [], longTasks: [] });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') m.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) { m.lcp = e.startTime; m.lcpElement = e.element ? e.element.tagName + '.' + e.element.className + ' "' + (e.element.textContent || '').slice(0, 40) + '"' : '?'; } }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) m.shifts.push([e.startTime, e.value]); }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) m.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
})();`;

interface RunResult {
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  jsWire: number;
  jsDecoded: number;
  jsRequests: number;
  requests: number;
  score: number;
  scores: Record<string, number>;
  headers: { csp?: string; scriptCache: Set<string>; scriptEncoding: Set<string> };
  violations: string[];
  /** --waterfall: the requests, long tasks and LCP element, as printable lines. */
  timeline: string[];
}

async function measure(url: string, session: { token: string; user: unknown }, preset: Preset): Promise<RunResult> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: preset.viewport.width, height: preset.viewport.height }, deviceScaleFactor: preset.viewport.deviceScaleFactor, isMobile: preset.viewport.isMobile, locale: 'pt-BR' });
    await context.addInitScript((s: { token: string; user: string }) => {
      localStorage.setItem('aabify-token', s.token);
      localStorage.setItem('aabify-user', s.user);
    }, { token: session.token, user: JSON.stringify(session.user) });
    await context.addInitScript(OBSERVERS);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && violations.push(m.text()));
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: preset.latencyMs,
      downloadThroughput: (preset.downloadKbps * 1024) / 8,
      uploadThroughput: (preset.uploadKbps * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: preset.cpuSlowdown });
    const types = new Map<string, string>();
    const result: RunResult = { fcp: 0, lcp: 0, tbt: 0, cls: 0, si: 0, jsWire: 0, jsDecoded: 0, jsRequests: 0, requests: 0, score: 0, scores: {}, headers: { scriptCache: new Set(), scriptEncoding: new Set() }, violations, timeline: [] };
    const requests = new Map<string, { url: string; start: number; end?: number; bytes?: number }>();
    cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url.replace(/^https?:\/\/[^/]+/, ''), start: e.timestamp }));
    cdp.on('Network.responseReceived', (e) => {
      types.set(e.requestId, e.type);
      const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      if (e.type === 'Document') result.headers.csp = h['content-security-policy'];
      if (e.type === 'Script') {
        result.headers.scriptCache.add(h['cache-control'] ?? '(none)');
        result.headers.scriptEncoding.add(h['content-encoding'] ?? 'identity');
      }
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
      result.requests++;
      if (types.get(e.requestId) !== 'Script') return;
      result.jsRequests++;
      result.jsWire += e.encodedDataLength;
    });
    cdp.on('Network.dataReceived', (e) => {
      if (types.get(e.requestId) === 'Script') result.jsDecoded += e.dataLength;
    });
    const frames: Array<{ at: number; png: Buffer }> = [];
    cdp.on('Page.screencastFrame', (f) => {
      frames.push({ at: f.metadata.timestamp! * 1000, png: Buffer.from(f.data, 'base64') });
      void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
    });
    await cdp.send('Page.startScreencast', { format: 'png', maxWidth: preset.viewport.width, maxHeight: preset.viewport.height });

    await page.goto(url, { waitUntil: 'load' });
    // The converter's drop zone is the screen's main content; then quiet for the metrics to settle.
    await page
      .getByTestId('dropzone-max-size')
      .waitFor({ state: 'visible', timeout: 60_000 })
      .catch(async (err: unknown) => {
        throw new Error(`the converter did not show (at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)})`, { cause: err });
      });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(3000);
    await cdp.send('Page.stopScreencast');
    const m = (await page.evaluate('window.__perf')) as { fcp: number; lcp: number; lcpElement?: string; shifts: Array<[number, number]>; longTasks: Array<[number, number]> };
    const timeOrigin = (await page.evaluate('performance.timeOrigin')) as number;
    result.fcp = m.fcp;
    result.lcp = m.lcp || m.fcp;
    if (waterfall) {
      const t0 = Math.min(...[...requests.values()].map((r) => r.start));
      const ms = (t: number | undefined) => (t === undefined ? '…' : ((t - t0) * 1000).toFixed(0)).padStart(6);
      for (const r of [...requests.values()].sort((a, b) => a.start - b.start)) result.timeline.push(`${ms(r.start)} ${ms(r.end)} ms ${String(r.bytes ?? '').padStart(7)} B  ${r.url.slice(0, 90)}`);
      result.timeline.push(`long tasks (start, ms): ${m.longTasks.map(([at, d]) => `${at.toFixed(0)}+${d.toFixed(0)}`).join(' ')}; LCP element ${m.lcpElement ?? '?'}`);
    }
    result.tbt = m.longTasks.filter(([start]) => start >= m.fcp).reduce((n, [, d]) => n + Math.max(0, d - 50), 0);
    // Session windows: shifts less than 1 s apart, a window at most 5 s long; the largest counts.
    let best = 0;
    let windowSum = 0;
    let windowStart = -Infinity;
    let lastAt = -Infinity;
    for (const [at, value] of m.shifts) {
      if (at - lastAt > 1000 || at - windowStart > 5000) {
        windowSum = 0;
        windowStart = at;
      }
      windowSum += value;
      lastAt = at;
      best = Math.max(best, windowSum);
    }
    result.cls = best;
    // Speed Index: ∫ (1 − visual progress) dt from navigation start. Progress is measured from
    // what the screen showed at navigation start (the last frame before it: the blank page), as
    // speedline's first frame is; the first frame after it may already be the painted page.
    const atStart = frames.filter((f) => f.at < timeOrigin).at(-1);
    const shown = frames.filter((f) => f.at >= timeOrigin);
    if (shown.length >= 2) {
      const hists = shown.map((f) => pngHistogram(f.png));
      const first = atStart ? pngHistogram(atStart.png) : hists[0]!;
      const last = hists.at(-1)!;
      let si = 0;
      let prevAt = timeOrigin;
      let prevProgress = 0;
      for (let i = 0; i < shown.length; i++) {
        si += (1 - prevProgress) * (shown[i]!.at - prevAt);
        prevAt = shown[i]!.at;
        prevProgress = visualProgress(hists[i]!, first, last);
      }
      result.si = si;
    } else result.si = result.fcp;
    const values = { fcp: result.fcp, si: result.si, lcp: result.lcp, tbt: result.tbt, cls: result.cls };
    let total = 0;
    for (const [k, curve] of Object.entries(preset.curves) as Array<[keyof typeof values, Curve]>) {
      result.scores[k] = logNormalScore(curve, values[k]);
      total += curve.weight * result.scores[k]!;
    }
    result.score = Math.round(total * 100);
    return result;
  } finally {
    await browser.close();
  }
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// Without --dashboard-dir: the working tree's dashboard, built for this run.
const served = dashboardDir || ensureDashboardBuilt();
await startTestCluster();
const server = await startTestServer({ DASHBOARD_DIR: served }, {});
try {
  await buildAdmin(server); // first-run setup done
  const user = await buildSubscriber(server, 30);
  const session = sessionOf(server, user);
  console.log(`aabify dashboard benchmark — ${cpus().length} CPUs, ${server.url}${path}, first load (empty cache), ${runs} runs per preset, ${dashboardDir || 'the working tree (built for this run)'}`);
  for (const preset of PRESETS.filter((p) => presetArg === 'both' || p.name === presetArg)) {
    const results: RunResult[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await measure(`${server.url}${path}`, session, preset);
      results.push(r);
      console.log(
        `${preset.name} run ${i + 1}: score ${r.score}  FCP ${r.fcp.toFixed(0)} ms (${r.scores.fcp})  SI ${r.si.toFixed(0)} ms (${r.scores.si})  ` +
          `LCP ${r.lcp.toFixed(0)} ms (${r.scores.lcp})  TBT ${r.tbt.toFixed(0)} ms (${r.scores.tbt})  CLS ${r.cls.toFixed(3)} (${r.scores.cls})  ` +
          `JS ${kb(r.jsWire)} on the wire (${kb(r.jsDecoded)} decoded, ${r.jsRequests} files), ${r.requests} requests  load ${load()}`,
      );
      for (const line of r.timeline) console.log(`  ${line}`);
    }
    const median = [...results].sort((a, b) => a.score - b.score)[Math.floor(results.length / 2)]!;
    console.log(`${preset.name}: median score ${median.score}; JS on the wire ${kb(median.jsWire)} (target < 200 KB)`);
    console.log(`  page CSP: ${median.headers.csp}`);
    console.log(`  scripts: Cache-Control ${[...median.headers.scriptCache].join(' | ')}; Content-Encoding ${[...median.headers.scriptEncoding].join(', ')}; CSP violations ${median.violations.length}`);
  }
} finally {
  await server.stop();
  await stopTestCluster();
}
process.exit(0);
