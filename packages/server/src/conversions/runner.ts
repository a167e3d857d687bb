/**
 * The `conversion` job: one Agenda job per conversion. A run first claims its conversion
 * under a global advisory lock — first in line, within `conversions.maxConcurrent` for all
 * processes and `conversions.concurrentPerUser` for its owner — or reschedules itself
 * shortly. A claimed conversion runs in the worker pool; its job lock is touched while it
 * runs, so a process that dies leaves a lock that expires and the job runs again elsewhere
 * (or after restart), resuming the conversion from the start.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Job } from 'agenda';
import { isConverterError } from '@aabify/converter';
import { CONVERSION_MESSAGES, CONVERSION_STEP_LABELS, aabFileName, CONVERSION_LIMITS, type ConversionLogLevel } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion } from '../models/index.js';
import type { InputFile } from '@aabify/converter';
import { storageKeys, type LocalCopy } from '../storage/index.js';
import { settleCredit } from './credits.js';
import { logLevelOf, trimLogs } from './logs.js';
import { overallProgress, storedReport } from './report.js';
import { readConversionSettings, type ConversionSettings } from './settings.js';
import type { ConversionService } from './service.js';
import { WorkerCrashedError, WorkerLimitError } from './workerPool.js';
import { signingKeyFor } from '../keystores/service.js';
import { ServerInstance } from '../jobs/instances.js';
import { storableJson, storableText } from '../db/storable.js';

export interface ConversionJobData {
  conversionId: string;
}

type Claim = { kind: 'run'; conversion: Conversion; resumed: boolean } | { kind: 'wait' } | { kind: 'skip' };

interface Running {
  controller: AbortController;
  reason?: 'cancel' | 'shutdown';
  done: Promise<void>;
}

const CLAIM_LOCK = 0x0aab1f2;
const PROGRESS_WRITE_MS = 500;
const PROGRESS_EMIT_MS = 200;

export class ConversionRunner {
  private readonly running = new Map<string, Running>();
  private closing = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly service: ConversionService,
    private readonly opts: { claimRetryMs: number; touchIntervalMs: number; maxAttempts: number; workerName: string; staleAfterMs: number },
  ) {
    service.events.onCancelRequest((id) => {
      const run = this.running.get(id);
      if (run && !run.reason) {
        run.reason = 'cancel';
        run.controller.abort();
      }
    });
  }

  get activeCount(): number {
    return this.running.size;
  }

  /** Aborts running conversions at their next safe point and puts them back in the queue. */
  async shutdown(timeoutMs: number): Promise<void> {
    this.closing = true;
    const runs = [...this.running.values()];
    for (const run of runs) {
      run.reason ??= 'shutdown';
      run.controller.abort();
    }
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  async handle(job: Job<ConversionJobData>): Promise<void> {
    const id = job.attrs.data?.conversionId;
    if (typeof id !== 'string') return;
    if (this.closing || this.running.has(id)) {
      if (this.closing) job.schedule(new Date(Date.now() + this.opts.claimRetryMs));
      return;
    }
    const settings = await readConversionSettings(this.ctx.settings);
    const claim = await this.claim(id, settings);
    if (claim.kind === 'wait') {
      job.schedule(new Date(Date.now() + this.opts.claimRetryMs));
      return;
    }
    if (claim.kind === 'skip') return;
    const controller = new AbortController();
    let finish!: () => void;
    const run: Running = { controller, done: new Promise<void>((r) => (finish = r)) };
    this.running.set(id, run);
    try {
      await this.execute(job, claim.conversion, claim.resumed, run, settings);
    } finally {
      this.running.delete(id);
      finish();
      this.service.queueChanged();
    }
  }

  private async claim(id: string, settings: ConversionSettings): Promise<Claim> {
    const { models, sequelize } = this.ctx;
    const result = await sequelize.transaction(async (transaction) => {
      await sequelize.query(`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`, { transaction });
      const conversion = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!conversion) return { kind: 'skip' } as const;
      if (conversion.status === 'processing') {
        // The job's lock expired or was released by an orphan sweep. While the instance that
        // runs it still beats, it is alive (only its lock touches failed): leave it be.
        if (conversion.workerName && (await this.ownerAlive(conversion.workerName, transaction))) return { kind: 'wait' } as const;
        // Its previous process died mid-run: run it again, a few times at most.
        if (conversion.attempts >= this.opts.maxAttempts) {
          await this.failLocked(conversion, 'WORKER_CRASHED', CONVERSION_MESSAGES.workerCrashed, `after ${conversion.attempts} attempts`, transaction);
          return { kind: 'crashed', conversion } as const;
        }
        await conversion.update(
          { attempts: conversion.attempts + 1, workerName: this.opts.workerName, processingStartedAt: new Date(), progress: 5, step: 'reading' },
          { transaction },
        );
        return { kind: 'run', conversion, resumed: true } as const;
      }
      if (conversion.status !== 'queued') return { kind: 'skip' } as const;
      const count = async (sql: string, replacements: Record<string, unknown>) =>
        Number((await sequelize.query<{ n: string }>(sql, { replacements, transaction, type: QueryTypes.SELECT }))[0]?.n ?? 0);
      const processing = await count(`SELECT count(*) AS n FROM conversions WHERE status = 'processing'`, {});
      if (processing >= settings.maxConcurrent) return { kind: 'wait' } as const;
      const perUser = settings.concurrentPerUser;
      if (perUser > 0) {
        const mine = await count(`SELECT count(*) AS n FROM conversions WHERE status = 'processing' AND "userId" = :userId`, { userId: conversion.userId });
        if (mine >= perUser) return { kind: 'wait' } as const;
      }
      // First in line among those allowed to start now.
      const ahead = await count(
        `SELECT count(*) AS n FROM (
           SELECT 1 FROM conversions c
           WHERE c.status = 'queued' AND c.id <> :id AND (c."queuedAt", c.id) < (:queuedAt, :id)
             AND (:perUser = 0 OR (SELECT count(*) FROM conversions p WHERE p.status = 'processing' AND p."userId" = c."userId") < :perUser)
           LIMIT 1) older`,
        { id, queuedAt: conversion.queuedAt ?? conversion.createdAt, perUser },
      );
      if (ahead > 0) return { kind: 'wait' } as const;
      await conversion.update(
        { status: 'processing', attempts: conversion.attempts + 1, workerName: this.opts.workerName, processingStartedAt: new Date(), progress: 5, step: 'reading' },
        { transaction },
      );
      return { kind: 'run', conversion, resumed: false } as const;
    });
    if (result.kind === 'crashed') {
      this.ctx.metrics?.conversionFinished('crashed');
      this.service.emitFailed(result.conversion);
      // Its process died: no copy of the inputs is held any more.
      await this.service.discardInputs(id);
      return { kind: 'skip' };
    }
    return result;
  }

  private async ownerAlive(workerName: string, transaction: Transaction): Promise<boolean> {
    if (workerName === this.opts.workerName) return false;
    const [row] = await this.ctx.sequelize.query<{ alive: boolean }>(`SELECT ${ServerInstance.aliveSql(':workerName')} AS alive`, {
      replacements: { workerName, staleAfterMs: this.opts.staleAfterMs },
      transaction,
      type: QueryTypes.SELECT,
    });
    return row?.alive === true;
  }

  private async execute(job: Job<ConversionJobData>, conversion: Conversion, resumed: boolean, run: Running, settings: ConversionSettings): Promise<void> {
    const { storage, events } = this.service;
    const id = conversion.id;
    const log = (level: ConversionLogLevel, message: string, step?: string) => this.service.log(id, level, message, step);

    events.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'processing', progress: 5, step: 'reading' });
    this.service.queueChanged();
    await log('info', resumed ? CONVERSION_MESSAGES.resumed : 'Processamento iniciado', 'queue');

    const touch = setInterval(() => {
      job.touch().catch((err: unknown) => this.ctx.logger.warn({ err, conversionId: id }, 'job lock not extended'));
    }, this.opts.touchIntervalMs);
    touch.unref();

    const copies: LocalCopy[] = [];
    let completedHere = false;
    let engineStarted: number | undefined;
    let output: string | undefined;
    let lastStage = '';
    let lastProgress = 5;
    let lastEmit = 0;
    let lastWrite = 0;
    const progressTo = (stage: string, progress: number, force = false) => {
      const now = Date.now();
      const stageChanged = stage !== lastStage;
      if (!force && !stageChanged && (progress <= lastProgress || now - lastEmit < PROGRESS_EMIT_MS)) return;
      lastStage = stage;
      lastProgress = Math.max(lastProgress, progress);
      lastEmit = now;
      events.update({
        type: 'progress',
        conversionId: id,
        timestamp: new Date(now).toISOString(),
        status: 'processing',
        progress: lastProgress,
        step: stage,
        message: `${CONVERSION_STEP_LABELS[stage] ?? stage} (${lastProgress}%)`,
      });
      if (stageChanged || force || now - lastWrite >= PROGRESS_WRITE_MS) {
        lastWrite = now;
        void this.ctx.models.Conversion.update({ progress: lastProgress, step: stage }, { where: { id, status: 'processing' } }).catch(() => undefined);
      }
    };

    try {
      if (!conversion.apkKey) throw new Error('conversion has no uploaded file');
      const main = await storage.localCopy(conversion.apkKey);
      copies.push(main);
      // A set upload: its other files under the names they were uploaded as (the engine tells
      // containers by content, but names OBB packs and the report's splits after the files).
      const inputs: InputFile[] = [{ path: main.path, name: conversion.fileName }];
      const obb: InputFile[] = [];
      for (const f of conversion.inputFiles ?? []) {
        const copy = await storage.localCopy(f.key);
        copies.push(copy);
        (f.obb ? obb : inputs).push({ path: copy.path, name: f.fileName });
      }
      output = await storage.scratchPath(`${id}.aab`);
      engineStarted = performance.now();
      const task = conversion.inputFiles?.length ? { input: inputs, ...(obb.length > 0 ? { obb } : {}) } : { input: main.path };
      const report = await this.service.pool.run(
        { ...task, output, options: conversion.options, ...(conversion.options.sign ? { sign: await signingKeyFor(this.ctx, conversion.userId) } : {}) },
        {
          signal: run.controller.signal,
          deadlineMs: settings.maxDurationSeconds * 1000,
          timeoutMessage: CONVERSION_MESSAGES.timedOut(settings.maxDurationSeconds),
          onProgress: (stage, fraction) => progressTo(stage, overallProgress(stage, fraction)),
          onLog: (entry) => void log(logLevelOf(entry.level), entry.message, entry.step),
        },
      );
      this.ctx.metrics?.engineRan('completed', (performance.now() - engineStarted) / 1000);
      engineStarted = undefined;
      progressTo('storing', 97, true);
      const aabKey = storageKeys.aab(id);
      await storage.putFile(aabKey, output);
      output = undefined;
      const size = (await storage.size(aabKey)) ?? report.sizeOut;
      const completed = await this.complete(id, storableJson(storedReport(report)), aabKey, size);
      if (!completed) {
        // Cancelled meanwhile: the file goes. Taken over by another instance (this one was
        // thought dead): the file is the same key that instance writes, so it stays.
        const now = await this.ctx.models.Conversion.findByPk(id);
        if (now?.status !== 'processing' && now?.status !== 'completed') await storage.delete(aabKey);
        return;
      }
      completedHere = true;
      this.ctx.metrics?.conversionFinished('completed');
      for (const w of report.warnings) await log('warning', w.message, 'report');
      await log('success', `Conversão concluída: ${aabFileName(completed.fileName)} (${size} bytes)`, 'done');
      this.service.stats.invalidate();
      events.update({
        type: 'completed',
        conversionId: id,
        timestamp: new Date().toISOString(),
        status: 'completed',
        progress: 100,
        filename: aabFileName(completed.fileName),
        fileSize: size,
        canDownload: true,
        expiresIn: CONVERSION_LIMITS.downloadTokenTtlSeconds,
        message: 'Conversão concluída com sucesso',
      });
    } catch (err) {
      if (engineStarted !== undefined) this.ctx.metrics?.engineRan('failed', (performance.now() - engineStarted) / 1000);
      if (run.reason === 'shutdown') {
        await this.requeue(id);
        job.schedule(new Date());
        return;
      }
      if (run.reason === 'cancel') return;
      const known = isConverterError(err);
      const limit = err instanceof WorkerLimitError ? err : undefined;
      const code = known ? err.code : limit ? limit.code : err instanceof WorkerCrashedError ? err.code : 'INTERNAL';
      const message = known ? err.message : limit ? limit.userMessage : CONVERSION_MESSAGES.genericFailure;
      const detail = known ? err.detail : err instanceof Error ? err.message : String(err);
      if (!known && !limit) this.ctx.logger.error({ err, conversionId: id }, 'conversion failed unexpectedly');
      const failed = await this.fail(id, code, message, detail);
      if (failed) {
        this.ctx.metrics?.conversionFinished('failed');
        await log('error', message, lastStage || 'processing');
        this.service.emitFailed(failed);
      }
    } finally {
      clearInterval(touch);
      if (output) await rm(output, { force: true }).catch(() => undefined);
      for (const c of copies) await c.release().catch(() => undefined);
      // Failed or cancelled (here or by a request to any process): the inputs go now that no
      // copy of them is held. Requeued or taken over by another instance: the status says so
      // and they stay.
      if (!completedHere) await this.service.discardInputs(id).catch((err: unknown) => this.ctx.logger.warn({ err, conversionId: id }, 'inputs not discarded'));
      await this.service.flushLogs(id);
      await trimLogs(this.ctx.sequelize, id).catch(() => undefined);
    }
  }

  /** processing → completed, credit spent; false (null) when the conversion was cancelled meanwhile. */
  private async complete(id: string, report: ReturnType<typeof storedReport>, aabKey: string, aabSize: number): Promise<Conversion | null> {
    const { models, sequelize } = this.ctx;
    return sequelize.transaction(async (transaction) => {
      const c = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
      // Only the instance that holds the conversion completes it: exactly one credit spent.
      if (!c || c.status !== 'processing' || c.workerName !== this.opts.workerName) return null;
      await settleCredit(models, c, 'spent', transaction);
      await c.update(
        { status: 'completed', progress: 100, step: 'done', report, aabKey, aabSize, completedAt: new Date(), creditState: c.creditState, workerName: null },
        { transaction },
      );
      await this.ctx.mail.conversionEnded(c, { transaction });
      return c;
    });
  }

  private async fail(id: string, code: string, message: string, detail: string | undefined): Promise<Conversion | null> {
    const { models, sequelize } = this.ctx;
    const failOnce = (why: string, about: string | undefined) =>
      sequelize.transaction(async (transaction) => {
        const c = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
        if (!c || !['pending', 'queued', 'processing'].includes(c.status)) return null;
        if (c.status === 'processing' && c.workerName !== this.opts.workerName) return null;
        await this.failLocked(c, code, why, about, transaction);
        return c;
      });
    try {
      return await failOnce(message, detail);
    } catch (err) {
      // A failure that cannot be written would leave the conversion processing for good,
      // holding its credit and a slot of the queue: it is written again without the details.
      this.ctx.logger.error({ err, conversionId: id, code }, 'conversion failure not written; written again without details');
      return failOnce(CONVERSION_MESSAGES.genericFailure, undefined);
    }
  }

  private async failLocked(c: Conversion, code: string, message: string, detail: string | undefined, transaction: Transaction): Promise<void> {
    await settleCredit(this.ctx.models, c, 'returned', transaction);
    await c.update(
      {
        status: 'failed',
        error: storableText(message),
        errorCode: code,
        errorDetail: detail === undefined ? null : storableText(detail).slice(0, 4000),
        completedAt: new Date(),
        creditState: c.creditState,
        workerName: null,
      },
      { transaction },
    );
    await this.ctx.mail.conversionEnded(c, { transaction });
  }

  private async requeue(id: string): Promise<void> {
    const [count] = await this.ctx.models.Conversion.update(
      // attempts goes back down: a shutdown is not the conversion's fault.
      { status: 'queued', progress: 0, step: null, workerName: null, processingStartedAt: null },
      { where: { id, status: 'processing', workerName: this.opts.workerName } },
    );
    if (count === 0) return;
    await this.ctx.sequelize.query(`UPDATE conversions SET attempts = GREATEST(0, attempts - 1) WHERE id = :id`, { replacements: { id } });
    await this.service.log(id, 'warning', CONVERSION_MESSAGES.requeued, 'queue');
    this.service.events.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'queued', progress: 0, message: CONVERSION_MESSAGES.requeued });
  }
}
