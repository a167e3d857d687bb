/**
 * Opens uploaded keystores off the event loop. Deriving a keystore's keys is
 * CPU work the uploader chooses (iteration counts, bags): the engine caps it (KEYSTORE_LIMITS),
 * and this runs it in a worker thread of its own per operation, so the API keeps answering:
 *   - a time budget (KEYSTORE_LIMITS.openBudgetMs, counted from when the worker is ready): past
 *     it the worker is terminated and the request fails with 422 KEYSTORE_TIMEOUT;
 *   - one operation per user at a time: a second one while the first runs is 429 KEYSTORE_BUSY;
 *   - at most `maxParallel` workers per process, the rest waiting in a short queue (429 when full).
 * The one-per-user rule holds across processes too: besides this process's set, each operation
 * holds a one-point slot of a shared rate limiter (Postgres) for its duration, given back when it
 * ends; a process that dies mid-way frees it when the slot's window passes. The worker counts
 * are per process.
 * The worker answers only what the account shows of the key, never the key itself.
 */
import type { Worker } from 'node:worker_threads';
import { ConverterError } from '@aabify/converter';
import { KEYSTORE_LIMITS, KEYSTORE_MESSAGES, type KeystoreMetadata } from '@aabify/shared';
import { deserializeError, type SerializedError } from '../conversions/engine.js';
import { startWorkerThread } from '../conversions/workerPool.js';
import { ApiError } from '../http/errors.js';
import type { Logger } from '../logger.js';
import type { Limiter } from '../http/rateLimiter.js';

export interface KeystoreJob {
  keystore: Uint8Array;
  storePassword: string;
  alias?: string;
  keyPassword?: string;
}

/** What the worker answers: the account's metadata of the key (no secret). */
export type OpenedKeystore = Pick<KeystoreMetadata, 'alias' | 'format' | 'keyAlgorithm' | 'keySize' | 'subject' | 'certificateSha1' | 'certificateSha256' | 'notAfter'>;

export type ToKeystoreWorker = { type: 'open'; job: KeystoreJob };
export type FromKeystoreWorker = { type: 'ready' } | { type: 'opened'; key: OpenedKeystore } | { type: 'failed'; error: SerializedError };

export interface KeystoreOpenerOptions {
  logger: Logger;
  /** Default KEYSTORE_LIMITS.openBudgetMs (tests lower it). */
  budgetMs?: number;
  /** Workers at once in this process (default 2). */
  maxParallel?: number;
  /** Operations waiting for a worker before new ones are refused (default 16). */
  maxQueued?: number;
  /** A one-point limiter shared by every process (ctx.rateLimits): one operation per user cluster-wide. */
  perUser?: Limiter;
}

/** V8 heap of a keystore worker: the file is at most 64 KB. */
const KEYSTORE_WORKER_HEAP_MB = 64;

function keystoreWorkerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('./keystoreWorker.ts', here) : new URL('./keystoreWorker.js', here);
}

const busy = (): ApiError => new ApiError(429, 'KEYSTORE_BUSY', KEYSTORE_MESSAGES.busy, { retryAfter: Math.ceil(KEYSTORE_LIMITS.openBudgetMs / 1000) });

export class KeystoreOpener {
  private readonly users = new Set<string>();
  private readonly workers = new Set<Worker>();
  private readonly queue: Array<() => void> = [];
  private running = 0;

  constructor(private readonly opts: KeystoreOpenerOptions) {}

  /** Opens `job` for `userId` in a worker: the key's metadata, or a coded error (ConverterError, ApiError). */
  async open(userId: string, job: KeystoreJob): Promise<OpenedKeystore> {
    if (this.users.has(userId)) throw busy();
    this.users.add(userId);
    const { perUser } = this.opts;
    try {
      if (perUser && (await perUser.consume(userId)).limited) {
        // A refused attempt still counted its point in the shared table: give it back.
        await perUser.refund(userId);
        throw busy();
      }
    } catch (err) {
      this.users.delete(userId);
      throw err;
    }
    try {
      await this.slot();
      try {
        return await this.runWorker(job);
      } finally {
        this.running--;
        this.queue.shift()?.();
      }
    } finally {
      this.users.delete(userId);
      await perUser?.refund(userId).catch((err: unknown) => this.opts.logger.warn({ err }, 'keystore: could not free the per-user slot; it ends with its window'));
    }
  }

  /** Terminates running workers (shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.terminate().catch(() => undefined)));
  }

  private slot(): Promise<void> {
    if (this.running < (this.opts.maxParallel ?? 2)) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.length >= (this.opts.maxQueued ?? 16)) return Promise.reject(busy());
    return new Promise((resolve) =>
      this.queue.push(() => {
        this.running++;
        resolve();
      }),
    );
  }

  private runWorker(job: KeystoreJob): Promise<OpenedKeystore> {
    const budgetMs = this.opts.budgetMs ?? KEYSTORE_LIMITS.openBudgetMs;
    const worker = startWorkerThread(keystoreWorkerEntry(), { name: 'aabify-keystore', resourceLimits: { maxOldGenerationSizeMb: KEYSTORE_WORKER_HEAP_MB } });
    this.workers.add(worker);
    return new Promise<OpenedKeystore>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.workers.delete(worker);
        worker.removeAllListeners();
        worker.on('error', () => undefined);
        void worker.terminate().catch(() => undefined);
        fn();
      };
      worker.on('message', (msg: FromKeystoreWorker) => {
        if (msg.type === 'ready') {
          // The budget covers the engine's work, not the worker's start-up.
          timer = setTimeout(() => {
            this.opts.logger.warn({ budgetMs }, 'keystore worker passed its time budget; terminated');
            settle(() => reject(new ApiError(422, 'KEYSTORE_TIMEOUT', KEYSTORE_MESSAGES.timedOut)));
          }, budgetMs);
          worker.postMessage({ type: 'open', job } satisfies ToKeystoreWorker);
        } else if (msg.type === 'opened') settle(() => resolve(msg.key));
        else settle(() => reject(deserializeError(msg.error)));
      });
      worker.on('error', (err: Error & { code?: string }) => {
        this.opts.logger.error({ err }, 'keystore worker died');
        // Past its heap limit the file is what is wrong; anything else is ours (500).
        settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ConverterError('BAD_KEYSTORE', 'memória esgotada ao abrir o keystore') : err));
      });
      worker.on('exit', (code) => settle(() => reject(new Error(`keystore worker exited with code ${code}`))));
    });
  }
}
