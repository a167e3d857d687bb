/**
 * Runs the `publications:run` job: one job per publication, claimed like a conversion
 * (jobs/claim.ts: the row locked, the instance recorded, a few runs at most when processes die)
 * and leased while it runs (a dead process's publication runs again elsewhere: a fresh edit; the
 * one left open expires at Google within the hour). The AAB is streamed from storage straight
 * into Google's resumable upload.
 */
import type { Job } from 'agenda';
import type { Sequelize, Transaction } from 'sequelize';
import { isPlayError, publishBundle } from '@aabify/converter/play';
import { PLAY_MESSAGES } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Models, Publication } from '../models/index.js';
import type { ServerSecrets } from '../secrets.js';
import type { ServerInstance } from '../jobs/instances.js';
import { claimRun } from '../jobs/claim.js';
import type { Storage } from '../storage/index.js';
import { playEndpoints, playKeyFor } from './credentials.js';
import type { PublicationEvents, PublicationJobData } from './publications.js';

const MAX_ATTEMPTS = 3;
const PROGRESS_WRITE_MS = 500;
/** How soon a publication whose previous run's process still beats is looked at again. */
const WAIT_RETRY_MS = 5000;

export interface PublicationRunnerDeps {
  sequelize: Sequelize;
  models: Models;
  logger: Logger;
  secrets: ServerSecrets;
  config: Pick<Config, 'googlePlay'>;
  storage: Storage;
  instance: Pick<ServerInstance, 'id' | 'timing'>;
  publicationEvents: PublicationEvents;
}

export interface PublicationRunnerOptions {
  /** Bytes per PUT of the resumable upload (a multiple of 256 KiB; tests use small chunks). */
  uploadChunkBytes?: number;
}

/**
 * Writes a publication's completed state. Every field is written by name: a progress save still
 * in flight when the last progress arrived marks `progress` as saved at its newer value (Sequelize
 * records the values it holds when the query returns, not those it sent), so an update of changed
 * fields alone would leave the row completed at 90 %.
 */
export async function recordCompleted(p: Publication, outcome: { versionCode: number; editId: string; playResponse: Publication['playResponse'] }): Promise<void> {
  const values = { status: 'completed' as const, progress: 100, step: 'done', workerName: null, ...outcome, completedAt: new Date() };
  await p.update(values, { fields: Object.keys(values) as (keyof typeof values)[] });
}

export class PublicationRunner {
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: PublicationRunnerDeps,
    private readonly opts: PublicationRunnerOptions = {},
  ) {}

  /** Publications this process is sending. */
  get activeCount(): number {
    return this.running.size;
  }

  async handle(job: Job<PublicationJobData>): Promise<void> {
    const id = job.attrs.data?.publicationId;
    if (typeof id !== 'string' || this.running.has(id)) return;
    // Held from before the claim: a second run of the same job in this process (its job saved
    // again meanwhile) would otherwise claim the row as this instance's own leftover.
    this.running.add(id);
    try {
      await this.claimAndRun(job, id);
    } finally {
      this.running.delete(id);
    }
  }

  private async claimAndRun(job: Job<PublicationJobData>, id: string): Promise<void> {
    const { models } = this.deps;
    const claim = await claimRun<Publication>(this.deps, {
      load: (transaction) => models.Publication.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE }),
      maxAttempts: MAX_ATTEMPTS,
      startValues: () => ({ startedAt: new Date(), progress: 1, step: 'token', editId: null }),
      exhausted: (p, transaction) => this.writeFailure(p, 'PUBLICATION_CRASHED', PLAY_MESSAGES.workerCrashed, `after ${p.attempts} attempts`, transaction),
    });
    if (claim.kind === 'wait') {
      job.schedule(new Date(Date.now() + WAIT_RETRY_MS));
      return;
    }
    if (claim.kind === 'exhausted') return this.announceFailure(claim.row);
    if (claim.kind === 'skip') return;
    await this.run(claim.row);
  }

  private async run(p: Publication): Promise<void> {
    const { publicationEvents: events, storage, logger } = this.deps;
    events.emit(p);
    const key = await playKeyFor(this.deps, p.userId);
    if (!key) return this.fail(p, 'PLAY_CREDENTIALS_REQUIRED', PLAY_MESSAGES.required);
    const conversion = await this.deps.models.Conversion.findByPk(p.conversionId);
    const aabKey = conversion?.aabKey;
    const size = aabKey && !conversion.filesPurgedAt ? await storage.size(aabKey) : undefined;
    if (!aabKey || size === undefined) return this.fail(p, 'CONVERSION_NOT_PUBLISHABLE', PLAY_MESSAGES.conversionNotReady);

    let lastWrite = 0;
    // Progress rows are written without waiting; the final state waits for the last of them, or
    // a late progress write would land after it (a completed publication shown at 95 %).
    let progressWrite: Promise<unknown> = Promise.resolve();
    try {
      const result = await publishBundle({
        key,
        packageName: p.packageName,
        bundle: { size, open: () => storage.read(aabKey) },
        release: {
          track: p.track,
          status: p.releaseStatus as 'draft' | 'completed' | 'inProgress',
          ...(p.rolloutPercent !== null ? { rolloutPercent: p.rolloutPercent } : {}),
          ...(p.releaseName ? { name: p.releaseName } : {}),
          ...(p.releaseNotes.length ? { notes: p.releaseNotes } : {}),
        },
        endpoints: playEndpoints(this.deps),
        chunkBytes: this.opts.uploadChunkBytes,
        onEdit: (editId) => {
          p.editId = editId;
        },
        onProgress: (step, progress) => {
          const stepChanged = step !== p.step;
          p.step = step;
          p.progress = Math.max(p.progress, progress);
          events.emit(p);
          const now = Date.now();
          if (stepChanged || now - lastWrite >= PROGRESS_WRITE_MS) {
            lastWrite = now;
            progressWrite = progressWrite.then(() => p.save({ fields: ['step', 'progress', 'editId'] })).catch(() => undefined);
          }
        },
        onLog: (level, message, step) => void events.log(p, level, message, step).catch((err: unknown) => logger.warn({ err }, 'publication log not written')),
      });
      await progressWrite;
      await recordCompleted(p, {
        versionCode: result.versionCode,
        editId: result.editId,
        playResponse: { bundle: result.bundle, track: result.trackResponse, commit: result.commitResponse },
      });
      events.emit(p);
      logger.info({ publicationId: p.id, versionCode: result.versionCode, track: p.track }, 'publication completed');
    } catch (err) {
      await progressWrite;
      if (isPlayError(err)) {
        logger.info({ publicationId: p.id, code: err.code, google: err.detail }, 'publication refused by Google Play');
        return this.fail(p, err.code, err.message, err.detail);
      }
      logger.error({ err, publicationId: p.id }, 'publication failed unexpectedly');
      return this.fail(p, 'INTERNAL', 'Ocorreu um erro interno durante a publicação.', err instanceof Error ? err.message : String(err));
    }
  }

  private async writeFailure(p: Publication, code: string, message: string, detail: string | undefined, transaction?: Transaction): Promise<void> {
    await p.update({ status: 'failed', error: message, errorCode: code, errorDetail: detail?.slice(0, 4000) ?? null, completedAt: new Date(), workerName: null }, { transaction });
  }

  private async announceFailure(p: Publication): Promise<void> {
    await this.deps.publicationEvents.log(p, 'error', p.error ?? PLAY_MESSAGES.workerCrashed, p.step ?? null);
    this.deps.publicationEvents.emit(p);
  }

  private async fail(p: Publication, code: string, message: string, detail?: string): Promise<void> {
    await this.writeFailure(p, code, message, detail);
    await this.announceFailure(p);
  }
}
