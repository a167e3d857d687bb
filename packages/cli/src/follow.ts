/**
 * Following one conversion live until it ends: the server-sent event stream
 * (`/conversion/updates/{id}?token=<stream ticket>`; each connection mints a single-use ticket
 * first, so the long-lived token never goes in a URL) for queue position, stage, progress and logs, with
 * `GET /conversion/status/{id}` polled beside it — rarely while the stream is up (a missed event
 * cannot hang a pipeline), every 2 s when the stream is unavailable. The status call has the
 * last word on the outcome.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { conversionStepLabel, isFinalConversionStatus, type ConversionKind, type ConversionLogLevel } from '@aabify/shared/conversions';
import type { ApiClient } from './api/client.js';
import { CliError, errorFromResponse } from './api/errors.js';
import { readServerEvents } from './api/sse.js';
import {
  estimateText,
  logKey,
  readConversion,
  readLogs,
  readUpdate,
  statusLabel,
  type Conversion,
  type LogEntry,
  type UpdateMessage,
} from './api/types.js';
import type { Output } from './output.js';
import { indentedText } from './safeText.js';
import { waitTimedOut, type WaitTimeout } from './waitTimeout.js';

export interface FollowOptions {
  /** Print log entries as they arrive. */
  showLogs: boolean;
  /** Print queue / stage / progress changes. */
  showProgress: boolean;
  env?: NodeJS.ProcessEnv;
  /** Give up (WAIT_TIMEOUT, exit 124) when the conversion has not ended by then; the server goes on. */
  timeout?: WaitTimeout;
  /** What the conversion reads and writes, for the stages' names (an AAB → APK one writes APKs). */
  kind?: ConversionKind;
}

export interface FollowResult {
  conversion: Conversion;
  logs: LogEntry[];
  /** How updates arrived: 'sse' when the stream worked at least once, else 'polling'. */
  transport: 'sse' | 'polling';
}

const LEVEL_LABELS: Record<ConversionLogLevel, string> = { info: 'info', success: 'ok', warning: 'aviso', error: 'erro' };

export function formatLog(entry: LogEntry): string {
  const time = entry.timestamp ? new Date(entry.timestamp) : undefined;
  const clock = time && !Number.isNaN(time.getTime()) ? `${time.toLocaleTimeString('pt-BR', { hour12: false })} ` : '';
  const level = LEVEL_LABELS[entry.level];
  // A log message may span lines: the further ones are indented under the first.
  return `${clock}[${level}]${entry.step ? ` ${entry.step}:` : ''} ${indentedText(entry.message)}`;
}

/** Collects log entries once each (same id, or same time plus message). */
export class LogBook {
  readonly entries: LogEntry[] = [];
  private readonly seen = new Set<string>();

  add(entry: LogEntry): boolean {
    const key = logKey(entry);
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    this.entries.push(entry);
    return true;
  }
}

interface LiveState {
  status?: string;
  progress?: number;
  position?: number;
  total?: number;
  estimate?: number;
  step?: string;
}

class Presenter {
  private state: LiveState = {};
  private lastPlain = '';
  private lastPlainBucket = -1;

  constructor(private readonly output: Output, private readonly options: FollowOptions, private readonly book: LogBook) {}

  log(entry: LogEntry): void {
    if (this.book.add(entry) && this.options.showLogs) this.output.info(formatLog(entry));
  }

  apply(patch: LiveState): void {
    const next: LiveState = { ...this.state };
    // A poll may be older than the last event: progress within one status never goes back.
    const stale = patch.progress !== undefined && this.state.progress !== undefined && patch.status === this.state.status && patch.progress < this.state.progress;
    for (const [k, v] of Object.entries(patch) as [keyof LiveState, LiveState[keyof LiveState]][]) {
      if (v === undefined || (stale && (k === 'progress' || k === 'step'))) continue;
      (next as Record<string, unknown>)[k] = v;
    }
    // Leaving the queue: the position no longer applies.
    if (next.status && next.status !== 'queued' && next.status !== 'pending') {
      next.position = undefined;
      next.total = undefined;
    }
    this.state = next;
    if (!this.options.showProgress) return;
    const line = this.describe(this.output.live);
    if (this.output.live) {
      this.output.status(line);
      return;
    }
    // Plain lines: on a new status, queue position or step, and every 10 % of progress.
    const bucket = next.progress === undefined ? -1 : Math.floor(next.progress / 10);
    const key = isFinalConversionStatus(next.status) ? String(next.status) : `${next.status}|${next.position}|${next.step}`;
    if (key !== this.lastPlain || bucket > this.lastPlainBucket) {
      this.lastPlain = key;
      this.lastPlainBucket = bucket;
      this.output.info(this.describe(false));
    }
  }

  private describe(bar: boolean): string {
    const s = this.state;
    const status = s.status ?? 'queued';
    if ((status === 'queued' || status === 'pending') && s.position !== undefined && s.position > 0) {
      const estimate = estimateText(s.estimate);
      return `Na fila: posição ${s.position}${s.total ? ` de ${s.total}` : ''}${estimate ? ` (estimativa: ${estimate})` : ''}`;
    }
    if (status === 'processing' || (status === 'queued' && s.position === 0)) {
      const p = Math.round(s.progress ?? 0);
      const width = 30;
      const filled = Math.round((p / 100) * width);
      const progress = bar ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(p).padStart(3)}%` : `${p}%`;
      return `Processando: ${progress}${s.step ? ` — ${conversionStepLabel(s.step, this.options.kind)}` : ''}`;
    }
    return `Status: ${statusLabel(status)}${s.progress !== undefined && !isFinalConversionStatus(status) ? ` (${Math.round(s.progress)}%)` : ''}`;
  }

  fromConversion(c: Conversion): void {
    for (const entry of c.logs ?? []) this.log(entry);
    this.apply({ status: c.status, progress: c.progress, position: c.queuePosition, total: c.totalInQueue, estimate: c.estimatedTime, step: c.step });
  }

  fromUpdate(u: UpdateMessage): void {
    if (u.log) this.log(u.log);
    // Progress only comes from a running job.
    const status = u.type === 'completed' ? 'completed' : u.type === 'error' ? 'failed' : (u.status ?? (u.type === 'progress' ? 'processing' : undefined));
    // A log message's step is the step that wrote it, not necessarily the current one.
    const step = u.type === 'log' ? undefined : u.step;
    this.apply({ status, progress: u.type === 'completed' ? 100 : u.progress, position: u.position, total: u.totalWaiting, estimate: u.estimatedTime, step });
  }

  end(): void {
    this.output.endStatus();
  }
}

export async function getConversion(api: ApiClient, id: string): Promise<Conversion> {
  return readConversion(await api.json('GET', `/conversion/status/${encodeURIComponent(id)}`));
}

export async function getLogs(api: ApiClient, id: string): Promise<LogEntry[]> {
  return readLogs(await api.json('GET', `/conversion/logs/${encodeURIComponent(id)}`));
}

function envMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = Number(env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Follows conversion `id` until it is completed, failed or cancelled (or `options.timeout` passes). */
export async function followConversion(api: ApiClient, output: Output, id: string, options: FollowOptions): Promise<FollowResult> {
  const env = options.env ?? process.env;
  const deadline = options.timeout ? Date.now() + options.timeout.ms : Infinity;
  const fastPoll = envMs(env, 'AABIFY_POLL_INTERVAL', 2000);
  const slowPoll = Math.max(fastPoll, 15_000);
  const idleMs = envMs(env, 'AABIFY_SSE_IDLE_TIMEOUT', 60_000);
  const book = new LogBook();
  const presenter = new Presenter(output, options, book);
  const stop = new AbortController();
  let sseUp = false;
  let sseEverUp = false;
  // The stream wakes the poll loop when it hears of the end; a wake while the loop is busy
  // is kept for its next wait.
  let waiter: (() => void) | undefined;
  let pendingWake = false;
  const wake = (): void => {
    if (waiter) waiter();
    else pendingWake = true;
  };
  let connected: () => void = () => {};
  const firstConnection = new Promise<void>((resolve) => (connected = resolve));

  const runStream = async (): Promise<void> => {
    let failures = 0;
    while (!stop.signal.aborted && failures < 5) {
      const attempt = new AbortController();
      const abortAttempt = (): void => attempt.abort();
      stop.signal.addEventListener('abort', abortAttempt, { once: true });
      let idle: NodeJS.Timeout | undefined;
      const touch = (): void => {
        clearTimeout(idle);
        idle = setTimeout(() => attempt.abort(), idleMs);
      };
      try {
        touch();
        const path = `/conversion/updates/${encodeURIComponent(id)}`;
        const minted = await api.json('POST', `${path}/ticket`, { signal: attempt.signal });
        const ticket = typeof minted === 'object' && minted !== null && 'ticket' in minted && typeof minted.ticket === 'string' ? minted.ticket : undefined;
        if (!ticket) return; // Not a server that streams: polling only.
        // 429 is read here, not retried by the client: the retry would present the spent ticket.
        const res = await api.stream(path, {
          query: { token: ticket },
          token: null,
          accept: 'text/event-stream',
          signal: attempt.signal,
          okStatuses: [200, 429],
        });
        if (res.statusCode === 429) {
          // Refused (too many live connections on the account): say why, then follow by polling.
          const refused = errorFromResponse(429, await res.body.json().catch(() => undefined));
          output.warn(refused.message);
          return;
        }
        if (!String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
          await res.body.dump().catch(() => undefined);
          return; // Not a stream server: polling only.
        }
        sseUp = sseEverUp = true;
        connected();
        failures = 0;
        for await (const ev of readServerEvents(touchingIterable(res.body, touch))) {
          let data: unknown;
          try {
            data = JSON.parse(ev.data);
          } catch {
            continue;
          }
          const update = readUpdate(data);
          if (!update || (update.conversionId && update.conversionId !== id)) continue;
          presenter.fromUpdate(update);
          if (update.type === 'completed' || update.type === 'error' || isFinalConversionStatus(update.status)) wake();
        }
      } catch (e) {
        // An oversized event: the stream is given up for good (said once), the status polling goes on.
        if (e instanceof CliError && e.code === 'SSE_EVENT_TOO_LARGE') {
          output.warn(`${e.message} [${e.code}]`);
          return;
        }
        // A 4xx (no such route, no access): the status call will say what is wrong; stop trying.
        const status = e instanceof CliError ? e.extra.status : undefined;
        if (status !== undefined && status >= 400 && status < 500) return;
      } finally {
        clearTimeout(idle);
        stop.signal.removeEventListener('abort', abortAttempt);
        sseUp = false;
      }
      if (stop.signal.aborted) return;
      failures += 1;
      wake();
      await sleep(Math.min(5000, 500 * 2 ** failures), undefined, { signal: stop.signal }).catch(() => undefined);
    }
  };

  // What was logged before (upload, queue) comes first; the end fetches anything missed.
  if (options.showLogs) await fetchLogsInto(api, id, presenter);
  const stream = runStream()
    .catch(() => undefined)
    .finally(() => connected());
  try {
    // The stream first, then the state: nothing that happens in between is missed.
    await Promise.race([firstConnection, sleep(3000, undefined, { ref: false })]);
    let conversion = await getConversion(api, id);
    for (;;) {
      presenter.fromConversion(conversion);
      if (isFinalConversionStatus(conversion.status)) break;
      const left = deadline - Date.now();
      if (left <= 0) throw waitTimedOut(id, options.timeout!, conversion.status);
      let woken = pendingWake;
      if (!woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(sseUp ? slowPoll : fastPoll, left));
          waiter = () => {
            woken = true;
            clearTimeout(timer);
            resolve();
          };
        });
      }
      waiter = undefined;
      pendingWake = false;
      conversion = await getConversion(api, id);
      // The event may beat the database: look again shortly.
      if (woken && !isFinalConversionStatus(conversion.status)) {
        await sleep(300);
        conversion = await getConversion(api, id);
      }
    }
    // Logs not streamed (polling only, or the last ones raced the end): fetch them once.
    if (options.showLogs || conversion.status !== 'completed') await fetchLogsInto(api, id, presenter);
    return { conversion, logs: book.entries, transport: sseEverUp ? 'sse' : 'polling' };
  } finally {
    stop.abort();
    presenter.end();
    await stream;
  }
}

async function fetchLogsInto(api: ApiClient, id: string, presenter: Presenter): Promise<void> {
  try {
    for (const entry of await getLogs(api, id)) presenter.log(entry);
  } catch {
    // Logs are a nicety here; the outcome is what counts.
  }
}

async function* touchingIterable(body: AsyncIterable<Buffer | string>, touch: () => void): AsyncGenerator<Buffer | string> {
  for await (const chunk of body) {
    touch();
    yield chunk as Buffer | string;
  }
}
