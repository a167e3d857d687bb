/**
 * The conversion service of one process (ctx.conversions): storage, the worker pool, the
 * job runner, live events, queue figures, log writing, cancel and retention. Built before the
 * queue starts (its job definitions must exist by then) and closed before the queue drains.
 */
import { Op, QueryTypes, literal, type InferAttributes } from 'sequelize';
import type { Server } from 'socket.io';
import {
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  type ConversionLogLevel,
  type ConversionStatus,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Conversion } from '../models/index.js';
import type { Limiter, RateLimiterOptions } from '../http/rateLimiter.js';
import { ApiError } from '../http/errors.js';
import { presentConversion } from './presenter.js';
import { storageKeys, type Storage } from '../storage/index.js';
import type { EngineSelection } from './engine.js';
import { ConversionEvents } from './events.js';
import { appendLog, readLogs } from './logs.js';
import { QueueStats, estimateRemaining, queueInfo, queueInfoAt, type QueueInfo } from './queueStats.js';
import { ConversionRunner, type ConversionJobData } from './runner.js';
import { readConversionSettings, type ConversionSettings } from './settings.js';
import { settleCredit } from './credits.js';
import { purgeAbandonedUploads } from './pendingUploads.js';
import { WorkerPool } from './workerPool.js';
import { ServerInstance } from '../jobs/instances.js';
import { NotifiedCache } from '../db/notifiedCache.js';

export const CONVERSION_JOB = 'conversion';
/** Conversions kept in memory for status reads (least recently read go first), and a safety-net age. */
const LAST_KNOWN_MAX = 10_000;
const LAST_KNOWN_MAX_AGE_MS = 60_000;
export const RETENTION_JOB = 'conversion-retention';
export const ABANDONED_UPLOADS_JOB = 'conversion-abandoned-uploads';
/** Failed and cancelled conversions whose files are still stored this long after they ended are purged by the retention job. */
const ENDED_FILES_GRACE_MS = 60 * 60 * 1000;
/** Rows of the Play publications still to send a conversion's AAB (`conversion`: an SQL expression of its id). */
const activePublicationsSql = (conversion: string) => `SELECT 1 FROM publications p WHERE p."conversionId" = ${conversion} AND p.status IN ('queued', 'processing')`;

export interface ConversionServiceOptions {
  /** Engine module run by the workers (tests: a slowed-down engine). */
  engine?: EngineSelection;
  /** How soon a conversion that could not start yet tries again. */
  claimRetryMs?: number;
  /** Attempts of a conversion whose process keeps dying before it fails. */
  maxAttempts?: number;
  /** Time an aborted engine gets before its worker thread is terminated. */
  abortGraceMs?: number;
  /** Heap cap of each worker thread (default WORKER_HEAP_LIMIT_MB; tests lower it). */
  workerHeapLimitMb?: number;
  /** Submissions per user (convert, start, bulk). */
  submitRateLimit?: RateLimiterOptions;
  /** How often the retention job runs (Agenda interval text). */
  retentionEvery?: string;
  /** How often uploads never started are looked for and removed (Agenda interval text). */
  abandonedUploadsEvery?: string;
}

export class ConversionService {
  readonly events: ConversionEvents;
  readonly stats: QueueStats;
  readonly pool: WorkerPool;
  readonly submitLimiter: Limiter;
  private readonly runner: ConversionRunner;
  /** Rows as last committed, by id; their trigger (migration 0120) drops them on every change. */
  private readonly lastKnown: NotifiedCache<InferAttributes<Conversion>>;
  private readonly logChains = new Map<string, Promise<unknown>>();
  private broadcastTimer?: NodeJS.Timeout;
  private periodicTimer?: NodeJS.Timeout;
  private lastPeriodic = 0;
  private maxConcurrentHint: number = CONVERSION_LIMITS.defaultMaxConcurrent;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    readonly storage: Storage,
    io: Server,
    private readonly opts: ConversionServiceOptions & { lockLifetimeMs: number; instance: ServerInstance },
  ) {
    this.events = new ConversionEvents(io, ctx.logger);
    this.stats = new QueueStats(ctx.sequelize);
    this.lastKnown = new NotifiedCache(ctx.notifier, { topic: 'conversion', max: LAST_KNOWN_MAX, maxAgeMs: LAST_KNOWN_MAX_AGE_MS });
    this.lastKnown.dropOnWrite(ctx.models.Conversion, 'id');
    this.submitLimiter = ctx.rateLimits.limiter('conversion-submit', opts.submitRateLimit ?? { points: 30, windowMs: 60_000 });
    this.pool = new WorkerPool({ size: () => this.maxConcurrentHint, engine: opts.engine, logger: ctx.logger, abortGraceMs: opts.abortGraceMs, heapLimitMb: opts.workerHeapLimitMb });
    this.runner = new ConversionRunner(ctx, this, {
      claimRetryMs: opts.claimRetryMs ?? 1000,
      touchIntervalMs: Math.max(200, Math.floor(opts.lockLifetimeMs / 4)),
      maxAttempts: opts.maxAttempts ?? 3,
      workerName: opts.instance.id,
      staleAfterMs: opts.instance.timing.staleAfterMs,
    });
  }

  conversionById(id: string): Promise<Conversion | null> {
    return this.ctx.models.Conversion.findByPk(id);
  }

  /**
   * The conversion as last committed, from memory while its row is unchanged (no query; see
   * db/notifiedCache.ts), for reads that present it (GET /status). A new instance per call.
   */
  async lastKnownById(id: string): Promise<Conversion | null> {
    const values = await this.lastKnown.get(id, async () => (await this.conversionById(id))?.get({ plain: true }));
    return values ? this.ctx.models.Conversion.build(values, { isNewRecord: false, raw: true }) : null;
  }

  settings(): Promise<ConversionSettings> {
    return readConversionSettings(this.ctx.settings);
  }

  /** Job definitions; call before queue.start(). `process` = this process runs conversions. */
  async register(queue: JobQueue, process: boolean): Promise<void> {
    queue.define<ConversionJobData>(CONVERSION_JOB, (job) => this.runner.handle(job), {
      concurrency: 64,
      lockLimit: 0,
      removeOnComplete: true,
      lockLifetime: this.opts.lockLifetimeMs,
    });
    queue.define(RETENTION_JOB, async () => {
      await this.purgeExpired();
    });
    queue.define(ABANDONED_UPLOADS_JOB, async () => {
      await purgeAbandonedUploads(this.ctx, this.storage);
    });
    if (!process) return;
    this.opts.instance.onBeat(async () => {
      const taken = await this.reclaimOrphans();
      if (taken.length) this.ctx.logger.warn({ conversions: taken }, 'conversions of a dead instance handed back to the queue');
    });
    const settings = await this.settings();
    this.maxConcurrentHint = settings.maxConcurrent;
    this.pool.warm();
    this.periodicTimer = setInterval(() => void this.periodic(), 1000);
    this.periodicTimer.unref();
  }

  /** After queue.start(): the recurring retention job, and jobs for queued conversions that lack one. */
  async afterStart(queue: JobQueue): Promise<void> {
    await queue.every(this.opts.retentionEvery ?? '1 hour', RETENTION_JOB, {}, { skipImmediate: false });
    await queue.every(this.opts.abandonedUploadsEvery ?? '5 minutes', ABANDONED_UPLOADS_JOB, {}, { skipImmediate: false });
    await this.ensureJobs();
  }

  /** Queues the conversion's job to run now (idempotent: one job per conversion). */
  async enqueue(conversionId: string): Promise<void> {
    const queue = this.ctx.queue;
    if (!queue) throw new Error('no job queue in this process');
    await queue.create<ConversionJobData>(CONVERSION_JOB, { conversionId }).unique({ 'data.conversionId': conversionId }).schedule(new Date()).save();
  }

  /** Safety net: a queued conversion whose job was never written (crash between commit and enqueue) gets one. */
  async ensureJobs(): Promise<number> {
    const rows = await this.ctx.sequelize.query<{ id: string }>(
      `SELECT c.id FROM conversions c WHERE c.status IN ('queued', 'processing')
         AND NOT EXISTS (SELECT 1 FROM agenda_jobs j WHERE j.name = :name AND j.data->>'conversionId' = c.id::text)`,
      { replacements: { name: CONVERSION_JOB }, type: QueryTypes.SELECT },
    );
    for (const r of rows) await this.enqueue(r.id);
    return rows.length;
  }

  /**
   * Conversions whose instance stopped beating (its process died): their job's lock is
   * released at once instead of after its lifetime, so a live worker resumes them now
   * (runner.ts claim). Returns their ids.
   */
  async reclaimOrphans(): Promise<string[]> {
    const rows = await this.ctx.sequelize.query<{ id: string }>(
      `UPDATE agenda_jobs j SET locked_at = NULL, next_run_at = now()
         FROM conversions c
        WHERE c.status = 'processing' AND j.name = :name AND j.data->>'conversionId' = c.id::text
          AND j.locked_at IS NOT NULL
          AND c."processingStartedAt" < now() - make_interval(secs => :staleAfterMs / 1000.0)
          AND NOT ${ServerInstance.aliveSql('c."workerName"')}
        RETURNING c.id`,
      { replacements: { name: CONVERSION_JOB, staleAfterMs: this.opts.instance.timing.staleAfterMs }, type: QueryTypes.SELECT },
    );
    return rows.map((r) => r.id);
  }

  /** Appends a log entry (in order per conversion) and sends it live. */
  log(conversionId: string, level: ConversionLogLevel, message: string, step?: string): Promise<void> {
    const prev = this.logChains.get(conversionId) ?? Promise.resolve();
    const next = prev
      .then(async () => {
        const entry = await appendLog(this.ctx.models, conversionId, { level, message, step });
        this.events.update({ type: 'log', conversionId, timestamp: entry.timestamp, log: entry, message: entry.message, step: entry.step ?? undefined });
      })
      .catch((err: unknown) => this.ctx.logger.warn({ err, conversionId }, 'conversion log not written'));
    this.logChains.set(conversionId, next);
    void next.then(() => {
      if (this.logChains.get(conversionId) === next) this.logChains.delete(conversionId);
    });
    return next;
  }

  async flushLogs(conversionId: string): Promise<void> {
    await this.logChains.get(conversionId);
  }

  emitFailed(c: Conversion): void {
    this.events.update({
      type: 'error',
      conversionId: c.id,
      timestamp: new Date().toISOString(),
      status: 'failed',
      error: c.error ?? CONVERSION_MESSAGES.genericFailure,
      message: c.error ?? CONVERSION_MESSAGES.genericFailure,
      code: c.errorCode ?? undefined,
    });
  }

  /** Queue figures of one conversion (position 0 when not waiting). */
  async queueInfoOf(c: Conversion, settings?: ConversionSettings): Promise<QueueInfo> {
    const s = settings ?? (await this.settings());
    if (c.status !== 'queued' && c.status !== 'processing') {
      return { queuePosition: 0, totalInQueue: 0, estimatedTime: 0, averageProcessingTime: await this.stats.averageProcessingTime(), currentlyProcessing: 0, maxConcurrent: s.maxConcurrent };
    }
    const snapshot = await this.stats.snapshot(s.maxConcurrent);
    const info = queueInfo(snapshot, c.id);
    if (c.status === 'processing') info.estimatedTime = estimateRemaining(c.progress, c.processingStartedAt, snapshot.averageProcessingTime);
    return info;
  }

  async describe(c: Conversion, extra: { logs?: boolean } = {}) {
    const settings = await this.settings();
    const queue = await this.queueInfoOf(c, settings);
    const logs = extra.logs ? await readLogs(this.ctx.models, c.id) : undefined;
    return presentConversion(c, { queue, retentionDays: settings.retentionDays, logs });
  }

  /** Something changed in the queue: tell every waiting conversion its new position (debounced). */
  queueChanged(): void {
    if (this.closed || this.broadcastTimer) return;
    this.broadcastTimer = setTimeout(() => {
      this.broadcastTimer = undefined;
      void this.broadcastQueue().catch((err: unknown) => this.ctx.logger.warn({ err }, 'queue broadcast failed'));
    }, 100);
    this.broadcastTimer.unref();
  }

  async broadcastQueue(): Promise<void> {
    const settings = await this.settings();
    this.maxConcurrentHint = settings.maxConcurrent;
    const snapshot = await this.stats.snapshot(settings.maxConcurrent);
    const now = new Date().toISOString();
    // Walked in line order: each position is its index (a lookup per id would be O(n²) over a long queue).
    for (const [index, id] of snapshot.queued.entries()) {
      // The snapshot was read before a message that started it: 'queued' now would move it back.
      if (this.events.leftQueue(id)) continue;
      const q = queueInfoAt(snapshot, index + 1);
      this.events.update({
        type: 'queue_position',
        conversionId: id,
        timestamp: now,
        status: 'queued',
        position: q.queuePosition,
        queuePosition: q.queuePosition,
        estimatedTime: q.estimatedTime,
        totalWaiting: q.totalInQueue,
        averageProcessingTime: q.averageProcessingTime,
        currentlyProcessing: q.currentlyProcessing,
        maxConcurrent: q.maxConcurrent,
      });
    }
  }

  private async periodic(): Promise<void> {
    try {
      const settings = await this.settings();
      if (Date.now() - this.lastPeriodic < settings.broadcastIntervalMs) return;
      this.lastPeriodic = Date.now();
      await this.broadcastQueue();
      await this.ensureJobs();
    } catch (err) {
      this.ctx.logger.warn({ err }, 'periodic queue work failed');
    }
  }

  /**
   * Cancels a pending, queued or processing conversion: the row first (credit given back in
   * the same transaction), then the running engine, wherever it runs, is told to stop. The
   * uploaded files go at once when nothing runs it; a running one's go when its runner has let
   * go of its copies (runner.ts), so cancel-and-upload cannot grow the store.
   */
  async cancel(id: string): Promise<Conversion> {
    const { models, sequelize } = this.ctx;
    const state: { previous?: ConversionStatus } = {};
    const c = await sequelize.transaction(async (transaction) => {
      const row = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!row) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
      if (!['pending', 'queued', 'processing'].includes(row.status)) throw ApiError.conflict(CONVERSION_MESSAGES.cannotCancel, 'CONVERSION_NOT_CANCELLABLE');
      state.previous = row.status;
      await settleCredit(models, row, 'returned', transaction);
      await row.update({ status: 'cancelled', cancelledAt: new Date(), completedAt: new Date(), creditState: row.creditState, workerName: null }, { transaction });
      return row;
    });
    this.ctx.metrics?.conversionFinished('cancelled');
    this.events.requestCancel(id);
    if (state.previous !== 'processing') {
      await this.discardInputs(id);
      await this.ctx.queue?.cancel({ name: CONVERSION_JOB, data: { conversionId: id } }).catch(() => 0);
    }
    await this.log(id, 'warning', CONVERSION_MESSAGES.cancelled, 'cancel');
    this.events.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'cancelled', progress: c.progress, message: CONVERSION_MESSAGES.cancelled });
    this.queueChanged();
    return (await this.conversionById(id)) ?? c;
  }

  /**
   * Deletes the stored files of a conversion that ended without an AAB (failed or cancelled).
   * Nothing reads them again: only queued and processing conversions are ever run, and a failed
   * or cancelled one is never restarted; its credit is back, so keeping the upload for the
   * retention period would let one user fill the store by uploading and cancelling. The row
   * keeps the names and sizes (inputFiles, fileName, fileSize) for the history, logs and admins;
   * `filesPurgedAt` says the files are gone. A store that refuses leaves them to the retention
   * job, which looks for such rows again (purgeExpired).
   */
  async discardInputs(id: string): Promise<void> {
    const c = await this.conversionById(id);
    if (!c || (c.status !== 'failed' && c.status !== 'cancelled') || c.filesPurgedAt) return;
    try {
      await this.deleteFiles(c);
    } catch (err) {
      this.ctx.logger.warn({ err, conversionId: id }, 'files of an ended conversion not deleted; the retention job tries again');
      return;
    }
    await this.ctx.models.Conversion.update({ filesPurgedAt: new Date() }, { where: { id, filesPurgedAt: null } });
  }

  /**
   * Removes the files of conversions older than the retention period; the rows stay with
   * canDownload false. Also the files of failed and cancelled conversions that are still there
   * an hour after they ended (their runner died, or the store refused at the time).
   * A conversion whose AAB a Play publication is sending (queued or processing) waits for it.
   */
  async purgeExpired(now: Date = new Date()): Promise<number> {
    const { retentionDays } = await this.settings();
    const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
    const endedCutoff = new Date(now.getTime() - ENDED_FILES_GRACE_MS);
    const { Conversion: C, DownloadToken } = this.ctx.models;
    const rows = await C.findAll({
      where: {
        filesPurgedAt: null,
        status: { [Op.in]: ['completed', 'failed', 'cancelled'] },
        [Op.and]: [
          {
            [Op.or]: [
              { completedAt: { [Op.lt]: cutoff } },
              { completedAt: null, updatedAt: { [Op.lt]: cutoff } },
              { status: { [Op.in]: ['failed', 'cancelled'] }, completedAt: { [Op.lt]: endedCutoff } },
            ],
          },
          literal(`NOT EXISTS (${activePublicationsSql('"Conversion".id')})`),
        ],
      },
      limit: 1000,
    });
    let purged = 0;
    for (const c of rows) {
      try {
        if (!(await this.purgeUnlessPublishing(c, now))) continue;
      } catch (err) {
        // The store is unreachable or refused: this row stays for the next run.
        this.ctx.logger.warn({ err, conversionId: c.id }, 'conversion files not purged');
        continue;
      }
      await DownloadToken.destroy({ where: { conversionId: c.id } });
      purged += 1;
    }
    await DownloadToken.destroy({ where: { expiresAt: { [Op.lt]: new Date(now.getTime() - 86_400_000) } } });
    if (purged) this.ctx.logger.info({ purged }, 'conversion files purged');
    return purged;
  }

  /**
   * Deletes the conversion's files and marks them purged, under the lock a new publication of it
   * takes (play/service.ts create), so a publication queued since the listing keeps its AAB;
   * false when one is active now.
   */
  private async purgeUnlessPublishing(c: Conversion, now: Date): Promise<boolean> {
    const { sequelize } = this.ctx;
    return sequelize.transaction(async (transaction) => {
      await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:id))', { replacements: { id: `publication:${c.id}` }, transaction });
      const [active] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM (${activePublicationsSql(':conversionId')}) active`, {
        replacements: { conversionId: c.id },
        transaction,
        type: QueryTypes.SELECT,
      });
      if (Number(active?.n ?? 0) > 0) return false;
      await this.deleteFiles(c);
      await c.update({ filesPurgedAt: now }, { transaction });
      return true;
    });
  }

  /** Removes every stored file of the conversion: its folder, and any key recorded outside it. */
  async deleteFiles(c: Conversion): Promise<void> {
    const folder = storageKeys.folder(c.id);
    await this.storage.deletePrefix(folder);
    for (const key of [...c.inputKeys, c.aabKey]) if (key && !key.startsWith(folder)) await this.storage.delete(key);
  }

  get runningCount(): number {
    return this.runner.activeCount;
  }

  /** Aborts running conversions (they go back to the queue) and stops the workers. */
  async close(timeoutMs = 10000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.periodicTimer);
    clearTimeout(this.broadcastTimer);
    await this.runner.shutdown(timeoutMs);
    await Promise.allSettled([...this.logChains.values()]);
    await this.pool.close();
  }
}
