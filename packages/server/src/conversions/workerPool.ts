/**
 * A pool of worker threads running the engine, so a large conversion never stalls the API.
 * Workers start on demand, one per task running (the queue's claims bound how many run at
 * once), and are reused while tasks keep coming. An abort asks the engine to stop at its next
 * check; a worker that does not answer within the grace period is terminated. A worker that
 * dies fails its task with WORKER_CRASHED; the next task gets a fresh one.
 *
 * Memory: a worker keeps its V8 heap's high-water mark for as long as it lives, so a worker idle
 * for WORKER_IDLE_MS ends (an idle server holds no engine thread), one that has run
 * WORKER_MAX_TASKS tasks is replaced by a fresh one, and each runs with a small young generation
 * (WORKER_YOUNG_GENERATION_MB). bench/README.md has the figures.
 *
 * Limits: each worker runs with a V8 heap cap (WORKER_HEAP_LIMIT_MB; a worker that reaches it
 * fails its task with WORKER_OUT_OF_MEMORY and is replaced) and each task may carry a deadline
 * (`conversions.maxDurationSeconds`): past it the worker is terminated and the task fails with
 * CONVERSION_TIMEOUT.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConverterError, type ApksReport, type ConversionReport, type ConversionStage } from '@aabify/converter';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import type { Logger } from '../logger.js';
import { deserializeError, type ApksTask, type EngineLogEntry, type EngineSelection, type EngineTask, type FromWorker, type ToWorker, type WorkerMemory, type WorkerTask } from './engine.js';

export class WorkerCrashedError extends Error {
  readonly code = 'WORKER_CRASHED';
  constructor(detail: string) {
    super(`conversion worker died: ${detail}`);
    this.name = 'WorkerCrashedError';
  }
}

/** A task stopped by a limit of the pool: its code and the pt-BR message the job fails with. */
export class WorkerLimitError extends Error {
  constructor(
    readonly code: 'CONVERSION_TIMEOUT' | 'WORKER_OUT_OF_MEMORY',
    readonly userMessage: string,
    detail: string,
  ) {
    super(detail);
    this.name = 'WorkerLimitError';
  }
}

/**
 * V8 heap cap of a conversion worker. The engine streams entries and keeps only the resource
 * files in memory: the biggest honest conversions measured (bench/: a 100 MB APK, a game with
 * 1 GB of assets) peak at 130–200 MB RSS for the whole process, so 1 GiB of old generation is
 * five times that. Buffers (file data) live outside this heap and are bounded by the engine's
 * own zip limits.
 */
export const WORKER_HEAP_LIMIT_MB = 1024;

/** A worker without a task this long ends; the next task starts a fresh one (tens of milliseconds). */
export const WORKER_IDLE_MS = 10_000;

/** Tasks a worker runs before a fresh one takes its place. */
export const WORKER_MAX_TASKS = 50;

/**
 * V8 young generation of a worker (its two semi-spaces and the new large objects: 4 MB
 * semi-spaces). V8's default lets it grow to 48 MB per thread while the engine allocates fast,
 * memory the engine's live data never needs: 20 × 5 corpus conversions on 3 threads held
 * 150–160 MB of worker heaps with the default, 75–94 MB with this (bench/README.md).
 */
export const WORKER_YOUNG_GENERATION_MB = 12;

export interface RunHooks {
  signal?: AbortSignal;
  /** Wall-clock budget from the moment a worker takes the task; past it: CONVERSION_TIMEOUT. */
  deadlineMs?: number;
  /** The message a timed-out task fails with. */
  timeoutMessage?: string;
  onProgress?(stage: ConversionStage, fraction: number): void;
  onLog?(entry: EngineLogEntry): void;
}

interface PendingTask {
  id: number;
  task: WorkerTask;
  hooks: RunHooks;
  resolve(report: ConversionReport | ApksReport): void;
  reject(err: Error): void;
}

interface PooledWorker {
  worker: Worker;
  task?: PendingTask;
  /** Tasks given to this worker so far. */
  tasks: number;
  abortTimer?: NodeJS.Timeout;
  deadlineTimer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
  /** What the worker last said of its memory (after each task). */
  memory?: WorkerMemory;
}

/** Resolves the worker entry beside this module: the .ts source under tsx, the .js bundle in dist/. */
export function workerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./conversionWorker.ts', here) : new URL('./conversionWorker.js', here);
}

/**
 * Starts a worker thread on a server entry (conversions, keystores): a .ts source under tsx,
 * registered in the worker itself since Node 20 workers do not run the parent's --import hooks,
 * or the bundle's plain-JavaScript entry.
 */
export function startWorkerThread(entry: URL, options: WorkerOptions): Worker {
  return entry.pathname.endsWith('.ts')
    ? new Worker(`import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { ...options, eval: true })
    : new Worker(entry, options);
}

/** tsx's ESM register API (only needed when running from sources). */
function tsxEsmApi(): string {
  const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(join(dirname(pkg), 'dist', 'esm', 'api', 'index.mjs')).href;
}

export interface WorkerPoolOptions {
  size(): number;
  engine?: EngineSelection;
  logger: Logger;
  /** Time an aborted task gets to stop before its worker is terminated. */
  abortGraceMs?: number;
  /** V8 old-generation cap per worker (default WORKER_HEAP_LIMIT_MB; tests lower it). */
  heapLimitMb?: number;
  /** A worker without a task this long ends (default WORKER_IDLE_MS). */
  idleMs?: number;
  /** Tasks a worker runs before it is replaced (default WORKER_MAX_TASKS). */
  maxTasks?: number;
  /** V8 young-generation size per worker (default WORKER_YOUNG_GENERATION_MB). */
  youngGenerationMb?: number;
}

export class WorkerPool {
  private readonly workers = new Set<PooledWorker>();
  private readonly waiting: PendingTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {}

  get busy(): number {
    let n = 0;
    for (const w of this.workers) if (w.task) n++;
    return n;
  }

  /** Worker threads alive now, busy or idle. */
  get threads(): number {
    return this.workers.size;
  }

  /** The live workers' memory as each last reported it (after its latest task), summed. */
  get memory(): WorkerMemory {
    const sum: WorkerMemory = { heapTotal: 0, heapUsed: 0, external: 0 };
    for (const w of this.workers) {
      sum.heapTotal += w.memory?.heapTotal ?? 0;
      sum.heapUsed += w.memory?.heapUsed ?? 0;
      sum.external += w.memory?.external ?? 0;
    }
    return sum;
  }

  /** Busy threads over the pool's size (warm size, or more while it has grown): 0…1. */
  get utilisation(): number {
    const size = Math.max(this.workers.size, this.opts.size());
    return size > 0 ? this.busy / size : 0;
  }

  /** A conversion (APK → AAB). */
  run(task: EngineTask, hooks: RunHooks = {}): Promise<ConversionReport> {
    return this.enqueue(task, hooks) as Promise<ConversionReport>;
  }

  /** A universal APK of a bundle. */
  runApks(task: ApksTask, hooks: RunHooks = {}): Promise<ApksReport> {
    return this.enqueue(task, hooks) as Promise<ApksReport>;
  }

  private enqueue(task: WorkerTask, hooks: RunHooks): Promise<ConversionReport | ApksReport> {
    if (this.closed) return Promise.reject(new Error('worker pool closed'));
    if (hooks.signal?.aborted) return Promise.reject(new ConverterError('ABORTED'));
    return new Promise<ConversionReport | ApksReport>((resolve, reject) => {
      const pending: PendingTask = { id: this.nextId++, task, hooks, resolve, reject };
      hooks.signal?.addEventListener('abort', () => this.abort(pending), { once: true });
      this.waiting.push(pending);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.waiting.splice(0)) t.reject(new ConverterError('ABORTED', 'worker pool closed'));
    await Promise.all([...this.workers].map((w) => this.terminate(w, 'pool closed')));
  }

  private dispatch(): void {
    while (this.waiting.length) {
      let idle = [...this.workers].find((w) => !w.task);
      if (!idle) idle = this.spawn();
      const task = this.waiting.shift()!;
      clearTimeout(idle.idleTimer);
      idle.idleTimer = undefined;
      idle.task = task;
      idle.tasks++;
      if (task.hooks.deadlineMs !== undefined) this.startDeadline(idle, task, task.hooks.deadlineMs);
      idle.worker.postMessage({ type: 'run', taskId: task.id, task: task.task } satisfies ToWorker);
    }
  }

  private spawn(): PooledWorker {
    const worker = startWorkerThread(workerEntry(), {
      workerData: { engine: this.opts.engine },
      name: 'aabify-conversion',
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.heapLimitMb ?? WORKER_HEAP_LIMIT_MB,
        maxYoungGenerationSizeMb: this.opts.youngGenerationMb ?? WORKER_YOUNG_GENERATION_MB,
      },
    });
    const pooled: PooledWorker = { worker, tasks: 0 };
    this.workers.add(pooled);
    worker.on('message', (msg: FromWorker) => this.onMessage(pooled, msg));
    worker.on('error', (err: Error & { code?: string }) => {
      this.opts.logger.error({ err }, 'conversion worker error');
      this.retire(
        pooled,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new WorkerLimitError('WORKER_OUT_OF_MEMORY', CONVERSION_MESSAGES.outOfMemory, err.message) : new WorkerCrashedError(err.message),
      );
    });
    worker.on('exit', (code) => this.retire(pooled, new WorkerCrashedError(`exit code ${code}`)));
    worker.unref();
    return pooled;
  }

  private onMessage(pooled: PooledWorker, msg: FromWorker): void {
    if (msg.type === 'memory') {
      const { heapTotal, heapUsed, external } = msg;
      pooled.memory = { heapTotal, heapUsed, external };
      return;
    }
    const task = pooled.task;
    if (msg.type === 'ready' || !task || msg.taskId !== task.id) return;
    try {
      if (msg.type === 'progress') task.hooks.onProgress?.(msg.stage, msg.fraction);
      else if (msg.type === 'log') task.hooks.onLog?.(msg.entry);
    } catch (err) {
      this.opts.logger.warn({ err }, 'conversion progress hook failed');
    }
    if (msg.type === 'done' || msg.type === 'failed') {
      clearTimeout(pooled.abortTimer);
      clearTimeout(pooled.deadlineTimer);
      pooled.abortTimer = undefined;
      pooled.deadlineTimer = undefined;
      pooled.task = undefined;
      if (msg.type === 'done') task.resolve(msg.report);
      else task.reject(deserializeError(msg.error));
      if (pooled.tasks >= (this.opts.maxTasks ?? WORKER_MAX_TASKS)) void this.terminate(pooled, 'task count reached');
      else this.idleFrom(pooled);
      this.dispatch();
    }
  }

  /** The worker ends unless a task reaches it within the idle time. */
  private idleFrom(pooled: PooledWorker): void {
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = setTimeout(() => {
      if (!pooled.task) void this.terminate(pooled, 'idle');
    }, this.opts.idleMs ?? WORKER_IDLE_MS);
    pooled.idleTimer.unref();
  }

  private abort(task: PendingTask): void {
    const queued = this.waiting.indexOf(task);
    if (queued >= 0) {
      this.waiting.splice(queued, 1);
      task.reject(new ConverterError('ABORTED'));
      return;
    }
    const pooled = [...this.workers].find((w) => w.task === task);
    if (!pooled) return;
    pooled.worker.postMessage({ type: 'abort', taskId: task.id } satisfies ToWorker);
    pooled.abortTimer = setTimeout(() => {
      if (pooled.task !== task) return;
      this.opts.logger.warn({ taskId: task.id }, 'conversion worker ignored abort; terminating it');
      pooled.task = undefined;
      task.reject(new ConverterError('ABORTED', 'worker terminated'));
      void this.terminate(pooled, 'abort timeout');
    }, this.opts.abortGraceMs ?? 5000);
    pooled.abortTimer.unref();
  }

  /** Past `ms`, the worker running `task` is terminated (a stuck engine never reaches a safe point); the next task gets a fresh one. */
  private startDeadline(pooled: PooledWorker, task: PendingTask, ms: number): void {
    pooled.deadlineTimer = setTimeout(() => {
      if (pooled.task !== task) return;
      this.opts.logger.warn({ taskId: task.id, deadlineMs: ms }, 'conversion passed its deadline; terminating its worker');
      pooled.task = undefined;
      task.reject(new WorkerLimitError('CONVERSION_TIMEOUT', task.hooks.timeoutMessage ?? CONVERSION_MESSAGES.genericFailure, `deadline of ${ms} ms passed`));
      void this.terminate(pooled, 'deadline');
    }, ms);
    pooled.deadlineTimer.unref();
  }

  private async terminate(pooled: PooledWorker, why: string): Promise<void> {
    this.workers.delete(pooled);
    clearTimeout(pooled.abortTimer);
    clearTimeout(pooled.deadlineTimer);
    clearTimeout(pooled.idleTimer);
    const task = pooled.task;
    pooled.task = undefined;
    pooled.worker.removeAllListeners('exit');
    pooled.worker.removeAllListeners('error');
    pooled.worker.on('error', () => undefined);
    await pooled.worker.terminate().catch(() => undefined);
    task?.reject(new ConverterError('ABORTED', why));
  }

  private retire(pooled: PooledWorker, err: Error): void {
    if (!this.workers.delete(pooled)) return;
    clearTimeout(pooled.abortTimer);
    clearTimeout(pooled.deadlineTimer);
    clearTimeout(pooled.idleTimer);
    const task = pooled.task;
    pooled.task = undefined;
    if (task) task.reject(err);
    if (!this.closed) this.dispatch();
  }
}
