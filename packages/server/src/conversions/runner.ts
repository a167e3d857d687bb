/**
 * Runs the `conversions:run` job: one job per conversion. A run first claims its conversion
 * (jobs/claim.ts) under a global advisory lock — first in line, within
 * `conversions.maxConcurrent` for all processes and `conversions.concurrentPerUser` for its
 * owner — or reschedules itself shortly. A claimed conversion runs in the worker pool; the job's
 * lease (jobs/define.ts) keeps its lock alive while it runs, so a process that dies leaves a lock
 * that expires and the job runs again elsewhere (or after restart), resuming the conversion from
 * the start, a few times at most.
 */
import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Job } from 'agenda';
import { isConverterError, type InputFile } from '@aabify/converter';
import { CONVERSION_MESSAGES, CONVERSION_LIMITS, conversionStepLabel, VERSION_CODE_FROM_PLAY, outputFileName, type ConversionLogLevel, type ConversionReportJson } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Conversion, Models } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import type { ServerSecrets } from '../secrets.js';
import type { Mailer } from '../mail/notices.js';
import type { Metrics } from '../ops/metrics.js';
import type { ServerInstance } from '../jobs/instances.js';
import { claimRun } from '../jobs/claim.js';
import { enqueueFor } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import type { JobQueue } from '../jobs/queue.js';
import { storageKeys, type LocalCopy, type Storage } from '../storage/index.js';
import { signingKeyFor } from '../keystores/service.js';
import { storableJson, storableText } from '../db/storable.js';
import { settleCredit } from './credits.js';
import { logLevelOf, trimLogs } from './logs.js';
import { overallProgress, storedApksReport, storedReport } from './report.js';
import { playVersionCodesFor, type PlayLookup } from './playVersionCodes.js';
import { apksBuildOf } from './aabToApks.js';
import { readConversionSettings, type ConversionSettings } from './settings.js';
import type { ConversionEvents } from './events.js';
import type { ConversionFiles } from './files.js';
import type { ConversionLogWriter } from './logWriter.js';
import type { QueueBroadcaster } from './queueBroadcaster.js';
import type { QueueStats } from './queueStats.js';
import { WorkerCrashedError, WorkerLimitError, type RunHooks, type WorkerPool } from './workerPool.js';

export interface ConversionJobData {
  conversionId: string;
}

export interface ConversionRunnerDeps {
  sequelize: Sequelize;
  models: Models;
  logger: Logger;
  secrets: ServerSecrets;
  /** GOOGLE_PLAY_API_URL / GOOGLE_OAUTH_TOKEN_URL: where the account's Play key reads the app's versionCodes. */
  config: Pick<Config, 'googlePlay'>;
  settings: SettingsService;
  storage: Storage;
  mail: Mailer;
  metrics: Metrics;
  instance: Pick<ServerInstance, 'id' | 'timing'>;
  workerPool: WorkerPool;
  conversionEvents: ConversionEvents;
  conversionLogs: ConversionLogWriter;
  conversionFiles: ConversionFiles;
  conversionStats: QueueStats;
  queueBroadcaster: QueueBroadcaster;
  /** To wake the conversions waiting for a slot when one frees (their jobs re-run now). */
  queue: JobQueue;
}

/**
 * How soon a conversion that could not start yet tries again on its own: seldom, since a freed
 * slot wakes the first ones in line at once (ConversionRunner.wakeWaiting).
 */
export const CLAIM_RETRY_MS = 15_000;

export interface ConversionRunnerOptions {
  /** How soon a conversion that could not start yet tries again on its own. */
  claimRetryMs: number;
  /** Runs of a conversion whose process keeps dying before it fails. */
  maxAttempts: number;
}

interface Running {
  controller: AbortController;
  reason?: 'cancel' | 'shutdown';
  done: Promise<void>;
}

type Claimed = { kind: 'run'; conversion: Conversion; resumed: boolean } | { kind: 'wait' } | { kind: 'skip' };

const CLAIM_LOCK = 0x0aab1f2;
const PROGRESS_WRITE_MS = 500;
const PROGRESS_EMIT_MS = 200;

export class ConversionRunner {
  private readonly running = new Map<string, Running>();
  /** Conversions whose claim is under way in this process. */
  private readonly claiming = new Set<string>();
  private closing = false;

  constructor(
    private readonly deps: ConversionRunnerDeps,
    private readonly opts: ConversionRunnerOptions,
  ) {
    deps.conversionEvents.onCancelRequest((id) => {
      const run = this.running.get(id);
      if (run && !run.reason) {
        run.reason = 'cancel';
        run.controller.abort();
      }
    });
  }

  /** Conversions this process is running. */
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

  /** One run of a conversion's job. */
  async handle(job: Job<ConversionJobData>): Promise<void> {
    const id = job.attrs.data?.conversionId;
    if (typeof id !== 'string') return;
    if (this.closing || this.running.has(id) || this.claiming.has(id)) {
      if (this.closing) job.schedule(new Date(Date.now() + this.opts.claimRetryMs));
      return;
    }
    // Taken before the first await: a second run of the same job in this process (its job saved
    // again meanwhile) would otherwise claim the row as this instance's own leftover and convert
    // it a second time.
    this.claiming.add(id);
    let settings: ConversionSettings;
    let claim: Claimed;
    try {
      settings = await readConversionSettings(this.deps.settings);
      claim = await this.claim(id, settings);
    } finally {
      this.claiming.delete(id);
    }
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
      this.deps.queueBroadcaster.changed();
      if (!this.closing) await this.wakeWaiting(settings);
    }
  }

  /**
   * Slots are free: the first conversions in line that may start now (their owner under
   * `conversions.concurrentPerUser`), as many as there are free slots, have their jobs run now.
   * Called when a conversion ends here (the gap that otherwise follows every conversion) and by
   * the periodic queue work (a slot freed by a process that died, a raised limit). Waiting jobs
   * therefore retry only rarely on their own (`claimRetryMs`): a hundred conversions in line
   * claiming every second cost the database more than the conversions. A woken job that finds no
   * room reschedules itself as before; a failure here only costs that wait.
   */
  async wakeWaiting(settings?: ConversionSettings): Promise<void> {
    try {
      const { maxConcurrent, concurrentPerUser } = settings ?? (await readConversionSettings(this.deps.settings));
      const waiting = await this.deps.sequelize.query<{ id: string }>(
        `SELECT c.id FROM conversions c
          WHERE c.status = 'queued'
            AND (:perUser = 0 OR (SELECT count(*) FROM conversions p WHERE p.status = 'processing' AND p."userId" = c."userId") < :perUser)
          ORDER BY COALESCE(c."queuedAt", c."createdAt"), c.id
          LIMIT GREATEST(0, :max - (SELECT count(*) FROM conversions WHERE status = 'processing'))`,
        { replacements: { max: maxConcurrent, perUser: concurrentPerUser }, type: QueryTypes.SELECT },
      );
      for (const { id } of waiting) await enqueueFor(this.deps.queue, JOBS.conversionRun, 'conversionId', id);
    } catch (err) {
      this.deps.logger.warn({ err }, 'waiting conversions not woken; they retry on their own');
    }
  }

  private async claim(id: string, settings: ConversionSettings): Promise<Claimed> {
    const { models, sequelize } = this.deps;
    const claim = await claimRun<Conversion>(this.deps, {
      advisoryLock: CLAIM_LOCK,
      load: (transaction) => models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE }),
      maxAttempts: this.opts.maxAttempts,
      startValues: () => ({ processingStartedAt: new Date(), progress: 5, step: 'reading' }),
      exhausted: (conversion, transaction) =>
        this.failLocked(conversion, 'WORKER_CRASHED', CONVERSION_MESSAGES.workerCrashed, `after ${conversion.attempts} attempts`, transaction),
      mayStart: async (conversion, transaction) => {
        const count = async (sql: string, replacements: Record<string, unknown>) =>
          Number((await sequelize.query<{ n: string }>(sql, { replacements, transaction, type: QueryTypes.SELECT }))[0]?.n ?? 0);
        const processing = await count(`SELECT count(*) AS n FROM conversions WHERE status = 'processing'`, {});
        if (processing >= settings.maxConcurrent) return false;
        const perUser = settings.concurrentPerUser;
        if (perUser > 0) {
          const mine = await count(`SELECT count(*) AS n FROM conversions WHERE status = 'processing' AND "userId" = :userId`, { userId: conversion.userId });
          if (mine >= perUser) return false;
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
        return ahead === 0;
      },
    });
    if (claim.kind === 'exhausted') {
      this.deps.metrics.conversionFinished('crashed');
      this.deps.conversionEvents.failed(claim.row);
      // Its process died: no copy of the inputs is held any more.
      await this.deps.conversionFiles.discardInputs(id);
      return { kind: 'skip' };
    }
    if (claim.kind === 'run') return { kind: 'run', conversion: claim.row, resumed: claim.resumed };
    return claim;
  }

  private async execute(job: Job<ConversionJobData>, conversion: Conversion, resumed: boolean, run: Running, settings: ConversionSettings): Promise<void> {
    const { storage, conversionEvents: events, conversionLogs, conversionFiles, queueBroadcaster, metrics, logger } = this.deps;
    const id = conversion.id;
    const log = (level: ConversionLogLevel, message: string, step?: string) => conversionLogs.write(id, level, message, step);

    events.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'processing', progress: 5, step: 'reading' });
    queueBroadcaster.changed();
    await log('info', resumed ? CONVERSION_MESSAGES.resumed : 'Processamento iniciado', 'queue');

    const copies: LocalCopy[] = [];
    let completedHere = false;
    let engineStarted: number | undefined;
    let output: string | undefined;
    let lastStage = '';
    let lastProgress = 5;
    let lastEmit = 0;
    let lastWrite = Date.now(); // the claim just wrote progress 5, step reading
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
        message: `${conversionStepLabel(stage, conversion.kind)} (${lastProgress}%)`,
      });
      // Written at most every PROGRESS_WRITE_MS, a new stage included: each write is a query and
      // a change every process hears (its cached row dropped); readers of the row between two
      // writes see the previous stage, the live messages see each one.
      if (force || now - lastWrite >= PROGRESS_WRITE_MS) {
        lastWrite = now;
        void this.deps.models.Conversion.update({ progress: lastProgress, step: stage }, { where: { id, status: 'processing' } }).catch(() => undefined);
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
      const hooks: RunHooks = {
        signal: run.controller.signal,
        deadlineMs: settings.maxDurationSeconds * 1000,
        timeoutMessage: CONVERSION_MESSAGES.timedOut(settings.maxDurationSeconds),
        onProgress: (stage, fraction) => progressTo(stage, overallProgress(stage, fraction)),
        onLog: (entry) => void log(logLevelOf(entry.level), entry.message, entry.step),
      };
      const sign = conversion.options.sign ? await signingKeyFor(this.deps, conversion.userId) : undefined;
      let outcome: { key: string; sizeOut: number; report: Pick<Conversion, 'report' | 'apksReport'>; warnings: readonly { message: string }[] };
      if (conversion.kind === 'aab-to-apks') {
        // An uploaded AAB: its universal APK or a device profile's set, signed with the upload key when asked, else the test key.
        const build = apksBuildOf(id, conversion.options);
        if (build.device) await log('info', CONVERSION_MESSAGES.deviceSetStarted(build.device.label), 'reading');
        output = await storage.scratchPath(`${id}.${build.extension}`);
        engineStarted = performance.now();
        const report = await this.deps.workerPool.runApks({ ...build.task(main.path, output), ...(sign ? { sign } : {}) }, hooks);
        if (build.device) await log('info', CONVERSION_MESSAGES.deviceSetBuilt(build.device.label, report.apks.map((a) => a.path)), 'writing');
        // buildApks already logged its warnings (onLog) as it wrote the APKs.
        outcome = { key: build.key, sizeOut: report.sizeOut, report: { report: null, apksReport: storableJson(storedApksReport(report, build.device)) }, warnings: [] };
      } else {
        output = await storage.scratchPath(`${id}.aab`);
        const task = conversion.inputFiles?.length ? { input: inputs, ...(obb.length > 0 ? { obb } : {}) } : { input: main.path };
        const play = await playVersionCodesFor(this.deps, conversion.userId, task.input, obb, run.controller.signal);
        const { versionCode, ...rest } = conversion.options;
        const chosenVersionCode = versionCode === VERSION_CODE_FROM_PLAY ? await this.versionCodeAfterPlay(id, play) : versionCode;
        engineStarted = performance.now();
        const report = await this.deps.workerPool.run({ ...task, output, options: { ...rest, ...(chosenVersionCode !== undefined ? { versionCode: chosenVersionCode } : {}) }, ...(sign ? { sign } : {}) }, hooks);
        const stored: ConversionReportJson = { ...storedReport(report), ...(play ? { play: play.versionCodes } : {}) };
        outcome = { key: storageKeys.aab(id), sizeOut: report.sizeOut, report: { report: storableJson(stored), apksReport: null }, warnings: report.warnings };
      }
      metrics.engineRan('completed', (performance.now() - engineStarted) / 1000);
      engineStarted = undefined;
      progressTo('storing', 97, true);
      const aabKey = outcome.key;
      await storage.putFile(aabKey, output);
      output = undefined;
      const size = (await storage.size(aabKey)) ?? outcome.sizeOut;
      const completed = await this.complete(id, outcome.report, aabKey, size);
      if (!completed) {
        // Cancelled meanwhile: the file goes. Taken over by another instance (this one was
        // thought dead): the file is the same key that instance writes, so it stays.
        const now = await this.deps.models.Conversion.findByPk(id);
        if (now?.status !== 'processing' && now?.status !== 'completed') await storage.delete(aabKey);
        return;
      }
      completedHere = true;
      metrics.conversionFinished('completed');
      for (const w of outcome.warnings) await log('warning', w.message, 'report');
      await log('success', `Conversão concluída: ${outputFileName(completed)} (${size} bytes)`, 'done');
      this.deps.conversionStats.invalidate();
      events.update({
        type: 'completed',
        conversionId: id,
        timestamp: new Date().toISOString(),
        status: 'completed',
        progress: 100,
        filename: outputFileName(completed),
        fileSize: size,
        canDownload: true,
        expiresIn: CONVERSION_LIMITS.downloadTokenTtlSeconds,
        message: 'Conversão concluída com sucesso',
      });
    } catch (err) {
      if (engineStarted !== undefined) metrics.engineRan('failed', (performance.now() - engineStarted) / 1000);
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
      if (!known && !limit) logger.error({ err, conversionId: id }, 'conversion failed unexpectedly');
      const failed = await this.fail(id, code, message, detail);
      if (failed) {
        metrics.conversionFinished('failed');
        await log('error', message, lastStage || 'processing');
        events.failed(failed);
      }
    } finally {
      if (output) await rm(output, { force: true }).catch(() => undefined);
      for (const c of copies) await c.release().catch(() => undefined);
      // Failed or cancelled (here or by a request to any process): the inputs go now that no
      // copy of them is held. Requeued or taken over by another instance: the status says so
      // and they stay.
      if (!completedHere) await conversionFiles.discardInputs(id).catch((err: unknown) => logger.warn({ err, conversionId: id }, 'inputs not discarded'));
      await conversionLogs.flush(id);
      await trimLogs(this.deps.sequelize, id).catch(() => undefined);
    }
  }

  /**
   * `versionCode: "play"`: one above the highest versionCode Play has; the APK's own when Play has
   * none or could not be asked (the checklist then says so). Logged either way.
   */
  private async versionCodeAfterPlay(id: string, play: PlayLookup | undefined): Promise<number | undefined> {
    const codes = play?.versionCodes;
    const next = codes?.reached && codes.highestVersionCode !== null ? codes.highestVersionCode + 1 : undefined;
    await this.deps.conversionLogs.write(id, next === undefined ? 'warning' : 'info', CONVERSION_MESSAGES.versionCodeFromPlay(codes, next), 'manifest');
    return next;
  }

  /** processing → completed, credit spent; false (null) when the conversion was cancelled meanwhile. */
  private async complete(id: string, reports: Pick<Conversion, 'report' | 'apksReport'>, aabKey: string, aabSize: number): Promise<Conversion | null> {
    const { models, sequelize } = this.deps;
    return sequelize.transaction(async (transaction) => {
      const c = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
      // Only the instance that holds the conversion completes it: exactly one credit spent.
      if (!c || c.status !== 'processing' || c.workerName !== this.deps.instance.id) return null;
      await settleCredit(models, c, 'spent', transaction);
      await c.update(
        { status: 'completed', progress: 100, step: 'done', ...reports, aabKey, aabSize, completedAt: new Date(), creditState: c.creditState, workerName: null },
        { transaction },
      );
      await this.deps.mail.conversionEnded(c, { transaction });
      return c;
    });
  }

  private async fail(id: string, code: string, message: string, detail: string | undefined): Promise<Conversion | null> {
    const { models, sequelize } = this.deps;
    const failOnce = (why: string, about: string | undefined) =>
      sequelize.transaction(async (transaction) => {
        const c = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
        if (!c || !['pending', 'queued', 'processing'].includes(c.status)) return null;
        if (c.status === 'processing' && c.workerName !== this.deps.instance.id) return null;
        await this.failLocked(c, code, why, about, transaction);
        return c;
      });
    try {
      return await failOnce(message, detail);
    } catch (err) {
      // A failure that cannot be written would leave the conversion processing for good,
      // holding its credit and a slot of the queue: it is written again without the details.
      this.deps.logger.error({ err, conversionId: id, code }, 'conversion failure not written; written again without details');
      return failOnce(CONVERSION_MESSAGES.genericFailure, undefined);
    }
  }

  private async failLocked(c: Conversion, code: string, message: string, detail: string | undefined, transaction: Transaction): Promise<void> {
    await settleCredit(this.deps.models, c, 'returned', transaction);
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
    await this.deps.mail.conversionEnded(c, { transaction });
  }

  private async requeue(id: string): Promise<void> {
    const [count] = await this.deps.models.Conversion.update(
      // attempts goes back down: a shutdown is not the conversion's fault.
      { status: 'queued', progress: 0, step: null, workerName: null, processingStartedAt: null },
      { where: { id, status: 'processing', workerName: this.deps.instance.id } },
    );
    if (count === 0) return;
    await this.deps.sequelize.query(`UPDATE conversions SET attempts = GREATEST(0, attempts - 1) WHERE id = :id`, { replacements: { id } });
    await this.deps.conversionLogs.write(id, 'warning', CONVERSION_MESSAGES.requeued, 'queue');
    this.deps.conversionEvents.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'queued', progress: 0, message: CONVERSION_MESSAGES.requeued });
  }
}
