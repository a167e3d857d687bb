/**
 * Publications to Google Play (ctx.publications), run like conversions: one Agenda job per
 * publication (`publication`), its lock touched while it runs (a process that dies leaves a
 * lock that expires, and the job runs again elsewhere — a fresh edit; the one left open expires
 * at Google within the hour); live events to the owner's sockets (`publication-update` in the
 * user's room, across processes through the socket.io Postgres adapter); logs stored beside it.
 * The AAB is streamed from storage straight into the resumable upload (storage.read).
 */
import { QueryTypes } from 'sequelize';
import type { Server } from 'socket.io';
import type { Job } from 'agenda';
import { isPlayError, publishBundle, type PublishLogLevel } from '@aabify/converter/play';
import {
  PLAY_MESSAGES,
  PUBLICATION_SOCKET_EVENT,
  type ApiPublication,
  type PublicationLogEntry,
  type PublicationUpdate,
  type PublishRequest,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Limiter } from '../http/rateLimiter.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Conversion, Publication, PublicationLog, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { userRoom } from '../conversions/events.js';
import type { Storage } from '../storage/index.js';
import { findPlayCredentials, playEndpoints, playKeyFor } from './credentials.js';

export const PUBLICATION_JOB = 'publication';
const MAX_ATTEMPTS = 3;
const PROGRESS_WRITE_MS = 500;

export interface PublicationJobData {
  publicationId: string;
}

export interface PublicationServiceOptions {
  /** Bytes per PUT of the resumable upload (a multiple of 256 KiB; tests use small chunks). */
  uploadChunkBytes?: number;
  lockLifetimeMs: number;
}

export function presentPublication(p: Publication): ApiPublication {
  return {
    id: p.id,
    conversionId: p.conversionId,
    userId: p.userId,
    packageName: p.packageName,
    track: p.track,
    releaseStatus: p.releaseStatus,
    rolloutPercent: p.rolloutPercent,
    releaseName: p.releaseName,
    releaseNotes: p.releaseNotes ?? [],
    status: p.status,
    progress: p.progress,
    step: p.step ?? null,
    versionCode: p.versionCode ?? null,
    editId: p.editId ?? null,
    playResponse: p.playResponse ?? null,
    error: p.error ?? null,
    errorCode: p.errorCode ?? null,
    createdAt: p.createdAt.toISOString(),
    startedAt: p.startedAt ? p.startedAt.toISOString() : null,
    completedAt: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

function presentLog(row: PublicationLog): PublicationLogEntry {
  return { id: String(row.id), timestamp: row.timestamp.toISOString(), level: row.level, message: row.message, step: row.step };
}

/**
 * Writes a publication's completed state. Every field is written by name: a progress save still
 * in flight when the last progress arrived marks `progress` as saved at its newer value (Sequelize
 * records the values it holds when the query returns, not those it sent), so an update of changed
 * fields alone would leave the row completed at 90 %.
 */
export async function recordCompleted(p: Publication, outcome: { versionCode: number; editId: string; playResponse: Publication['playResponse'] }): Promise<void> {
  const values = { status: 'completed' as const, progress: 100, step: 'done', ...outcome, completedAt: new Date() };
  await p.update(values, { fields: Object.keys(values) as (keyof typeof values)[] });
}

export class PublicationService {
  readonly publishLimiter: Limiter;
  readonly testLimiter: Limiter;
  private readonly running = new Set<string>();

  constructor(
    private readonly ctx: AppContext,
    private readonly storage: Storage,
    private readonly io: Server,
    private readonly opts: PublicationServiceOptions,
  ) {
    this.publishLimiter = ctx.rateLimits.limiter('play-publish', { points: 10, windowMs: 60_000 });
    this.testLimiter = ctx.rateLimits.limiter('play-test', { points: 10, windowMs: 60_000 });
  }

  register(queue: JobQueue): void {
    queue.define<PublicationJobData>(PUBLICATION_JOB, (job) => this.handle(job), {
      concurrency: 8,
      removeOnComplete: true,
      lockLifetime: this.opts.lockLifetimeMs,
    });
  }

  /** After queue.start(): a queued publication whose job was never written (crash between commit and enqueue) gets one. */
  async afterStart(): Promise<void> {
    const rows = await this.ctx.sequelize.query<{ id: string }>(
      `SELECT p.id FROM publications p WHERE p.status IN ('queued', 'processing')
         AND NOT EXISTS (SELECT 1 FROM agenda_jobs j WHERE j.name = :name AND j.data->>'publicationId' = p.id::text)`,
      { replacements: { name: PUBLICATION_JOB }, type: QueryTypes.SELECT },
    );
    for (const r of rows) await this.enqueue(r.id);
  }

  private async enqueue(publicationId: string): Promise<void> {
    const queue = this.ctx.queue;
    if (!queue) throw new Error('no job queue in this process');
    await queue.create<PublicationJobData>(PUBLICATION_JOB, { publicationId }).unique({ 'data.publicationId': publicationId }).schedule(new Date()).save();
  }

  /**
   * A publication of the user's own completed conversion, with the user's stored key: the row
   * (queued) and its job. Refusals: no key (409), conversion not completed or its files
   * purged (409), one already running for the conversion (409).
   */
  async create(user: User, conversion: Conversion, request: PublishRequest): Promise<Publication> {
    if (!(await findPlayCredentials(this.ctx, user.id))) throw ApiError.conflict(PLAY_MESSAGES.required, 'PLAY_CREDENTIALS_REQUIRED');
    if (conversion.status !== 'completed' || !conversion.aabKey || conversion.filesPurgedAt) throw ApiError.conflict(PLAY_MESSAGES.conversionNotReady, 'CONVERSION_NOT_PUBLISHABLE');
    const packageName = conversion.report?.packageName;
    if (!packageName) throw ApiError.conflict(PLAY_MESSAGES.noPackageName, 'CONVERSION_NOT_PUBLISHABLE');
    const { Publication: P } = this.ctx.models;
    const publication = await this.ctx.sequelize.transaction(async (transaction) => {
      // One publication of a conversion at a time (two would race for the same versionCode).
      await this.ctx.sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:id))', { replacements: { id: `publication:${conversion.id}` }, transaction });
      const active = await P.count({ where: { conversionId: conversion.id, status: ['queued', 'processing'] }, transaction });
      if (active > 0) throw ApiError.conflict(PLAY_MESSAGES.alreadyPublishing, 'PUBLICATION_IN_PROGRESS');
      return P.create(
        {
          conversionId: conversion.id,
          userId: user.id,
          packageName,
          track: request.track,
          releaseStatus: request.releaseStatus as Publication['releaseStatus'],
          rolloutPercent: request.releaseStatus === 'inProgress' ? (request.rolloutPercent ?? null) : null,
          releaseName: request.releaseName || null,
          releaseNotes: request.releaseNotes ?? [],
          status: 'queued',
        },
        { transaction },
      );
    });
    await this.log(publication, 'info', `${PLAY_MESSAGES.queued} Faixa ${publication.track}, status ${publication.releaseStatus}.`, null);
    await this.enqueue(publication.id);
    this.ctx.logger.info({ publicationId: publication.id, conversionId: conversion.id, track: publication.track }, 'publication queued');
    return publication;
  }

  async logs(publicationId: string): Promise<PublicationLogEntry[]> {
    const rows = await this.ctx.models.PublicationLog.findAll({ where: { publicationId }, order: [['id', 'ASC']], limit: 500 });
    return rows.map(presentLog);
  }

  private emit(p: Publication, log?: PublicationLogEntry): void {
    const msg: PublicationUpdate = { publication: presentPublication(p), ...(log ? { log } : {}) };
    this.io.to(userRoom(p.userId)).emit(PUBLICATION_SOCKET_EVENT, msg);
  }

  private async log(p: Publication, level: PublishLogLevel, message: string, step: string | null): Promise<void> {
    const row = await this.ctx.models.PublicationLog.create({ publicationId: p.id, timestamp: new Date(), level, step, message: message.slice(0, 4000) });
    this.emit(p, presentLog(row));
  }

  get runningCount(): number {
    return this.running.size;
  }

  private async handle(job: Job<PublicationJobData>): Promise<void> {
    const id = job.attrs.data?.publicationId;
    if (typeof id !== 'string' || this.running.has(id)) return;
    const { Publication: P } = this.ctx.models;
    const p = await P.findByPk(id);
    if (!p || (p.status !== 'queued' && p.status !== 'processing')) return;
    if (p.attempts >= MAX_ATTEMPTS) {
      await this.fail(p, 'PUBLICATION_CRASHED', PLAY_MESSAGES.workerCrashed, `after ${p.attempts} attempts`);
      return;
    }
    this.running.add(id);
    const touch = setInterval(() => job.touch().catch(() => undefined), Math.max(200, Math.floor(this.opts.lockLifetimeMs / 4)));
    touch.unref();
    try {
      await this.run(p);
    } finally {
      clearInterval(touch);
      this.running.delete(id);
    }
  }

  private async run(p: Publication): Promise<void> {
    await p.update({ status: 'processing', attempts: p.attempts + 1, startedAt: new Date(), progress: 1, step: 'token', editId: null });
    this.emit(p);
    const key = await playKeyFor(this.ctx, p.userId);
    if (!key) return this.fail(p, 'PLAY_CREDENTIALS_REQUIRED', PLAY_MESSAGES.required);
    const conversion = await this.ctx.models.Conversion.findByPk(p.conversionId);
    const aabKey = conversion?.aabKey;
    const size = aabKey && !conversion.filesPurgedAt ? await this.storage.size(aabKey) : undefined;
    if (!aabKey || size === undefined) return this.fail(p, 'CONVERSION_NOT_PUBLISHABLE', PLAY_MESSAGES.conversionNotReady);

    let lastWrite = 0;
    // Progress rows are written without waiting; the final state waits for the last of them, or
    // a late progress write would land after it (a completed publication shown at 95 %).
    let progressWrite: Promise<unknown> = Promise.resolve();
    try {
      const result = await publishBundle({
        key,
        packageName: p.packageName,
        bundle: { size, open: () => this.storage.read(aabKey) },
        release: {
          track: p.track,
          status: p.releaseStatus as 'draft' | 'completed' | 'inProgress',
          ...(p.rolloutPercent !== null ? { rolloutPercent: p.rolloutPercent } : {}),
          ...(p.releaseName ? { name: p.releaseName } : {}),
          ...(p.releaseNotes.length ? { notes: p.releaseNotes } : {}),
        },
        endpoints: playEndpoints(this.ctx),
        chunkBytes: this.opts.uploadChunkBytes,
        onEdit: (editId) => {
          p.editId = editId;
        },
        onProgress: (step, progress) => {
          const stepChanged = step !== p.step;
          p.step = step;
          p.progress = Math.max(p.progress, progress);
          this.emit(p);
          const now = Date.now();
          if (stepChanged || now - lastWrite >= PROGRESS_WRITE_MS) {
            lastWrite = now;
            progressWrite = progressWrite.then(() => p.save({ fields: ['step', 'progress', 'editId'] })).catch(() => undefined);
          }
        },
        onLog: (level, message, step) => void this.log(p, level, message, step).catch((err: unknown) => this.ctx.logger.warn({ err }, 'publication log not written')),
      });
      await progressWrite;
      await recordCompleted(p, {
        versionCode: result.versionCode,
        editId: result.editId,
        playResponse: { bundle: result.bundle, track: result.trackResponse, commit: result.commitResponse },
      });
      this.emit(p);
      this.ctx.logger.info({ publicationId: p.id, versionCode: result.versionCode, track: p.track }, 'publication completed');
    } catch (err) {
      await progressWrite;
      if (isPlayError(err)) {
        this.ctx.logger.info({ publicationId: p.id, code: err.code, google: err.detail }, 'publication refused by Google Play');
        return this.fail(p, err.code, err.message, err.detail);
      }
      this.ctx.logger.error({ err, publicationId: p.id }, 'publication failed unexpectedly');
      return this.fail(p, 'INTERNAL', 'Ocorreu um erro interno durante a publicação.', err instanceof Error ? err.message : String(err));
    }
  }

  private async fail(p: Publication, code: string, message: string, detail?: string): Promise<void> {
    await p.update({ status: 'failed', error: message, errorCode: code, errorDetail: detail?.slice(0, 4000) ?? null, completedAt: new Date() });
    await this.log(p, 'error', message, p.step ?? null);
    this.emit(p);
  }
}
