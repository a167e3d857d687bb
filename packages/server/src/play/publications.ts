/**
 * Publications to Google Play: a publication of the user's own completed conversion is a row
 * (queued) and a `publications:run` job (run by publicationRunner.ts, like conversions); its logs
 * are stored beside it and everything it does reaches the owner's sockets live
 * (`publication-update` in the user's room, across processes through the socket.io adapter).
 */
import type { Sequelize } from 'sequelize';
import type { Server } from 'socket.io';
import type { PublishLogLevel } from '@aabify/converter/play';
import {
  PLAY_MESSAGES,
  PUBLICATION_SOCKET_EVENT,
  type ApiPublication,
  type PublicationLogEntry,
  type PublicationUpdate,
  type PublishRequest,
} from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Conversion, Models, Publication, PublicationLog, User } from '../models/index.js';
import type { JobQueue } from '../jobs/queue.js';
import { enqueueFor } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import { ApiError } from '../http/errors.js';
import { userRoom } from '../conversions/events.js';
import { publicationLockKey } from '../conversions/retention.js';
import { findPlayCredentials } from './credentials.js';
import { lockForTransaction } from '../db/locks.js';

export interface PublicationJobData {
  publicationId: string;
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

/** A publication's live messages and stored log. */
export class PublicationEvents {
  constructor(private readonly deps: { io: Server; models: Models }) {}

  emit(p: Publication, log?: PublicationLogEntry): void {
    const msg: PublicationUpdate = { publication: presentPublication(p), ...(log ? { log } : {}) };
    this.deps.io.to(userRoom(p.userId)).emit(PUBLICATION_SOCKET_EVENT, msg);
  }

  async log(p: Publication, level: PublishLogLevel, message: string, step: string | null): Promise<void> {
    const row = await this.deps.models.PublicationLog.create({ publicationId: p.id, timestamp: new Date(), level, step, message: message.slice(0, 4000) });
    this.emit(p, presentLog(row));
  }

  async logsOf(publicationId: string): Promise<PublicationLogEntry[]> {
    const rows = await this.deps.models.PublicationLog.findAll({ where: { publicationId }, order: [['id', 'ASC']], limit: 500 });
    return rows.map(presentLog);
  }
}

export interface CreatePublicationDeps {
  sequelize: Sequelize;
  models: Models;
  logger: Logger;
  queue: JobQueue;
  publicationEvents: PublicationEvents;
}

/**
 * A publication of the user's own completed conversion, with the user's stored key: the row
 * (queued) and its job. Refusals: no key (409), conversion not completed or its files
 * purged (409), one already running for the conversion (409).
 */
export async function createPublication(deps: CreatePublicationDeps, user: User, conversion: Conversion, request: PublishRequest): Promise<Publication> {
  if (!(await findPlayCredentials(deps, user.id))) throw ApiError.conflict(PLAY_MESSAGES.required, 'PLAY_CREDENTIALS_REQUIRED');
  if (conversion.kind !== 'apk-to-aab') throw ApiError.conflict(PLAY_MESSAGES.notABundle, 'CONVERSION_NOT_PUBLISHABLE');
  if (conversion.status !== 'completed' || !conversion.aabKey || conversion.filesPurgedAt) throw ApiError.conflict(PLAY_MESSAGES.conversionNotReady, 'CONVERSION_NOT_PUBLISHABLE');
  const packageName = conversion.report?.packageName;
  if (!packageName) throw ApiError.conflict(PLAY_MESSAGES.noPackageName, 'CONVERSION_NOT_PUBLISHABLE');
  const { Publication: P } = deps.models;
  const publication = await deps.sequelize.transaction(async (transaction) => {
    // One publication of a conversion at a time (two would race for the same versionCode); the
    // retention job takes the same lock before it deletes the conversion's files.
    await lockForTransaction(deps.sequelize, publicationLockKey(conversion.id), transaction);
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
  await deps.publicationEvents.log(publication, 'info', `${PLAY_MESSAGES.queued} Faixa ${publication.track}, status ${publication.releaseStatus}.`, null);
  await enqueueFor(deps.queue, JOBS.publicationRun, 'publicationId', publication.id);
  deps.logger.info({ publicationId: publication.id, conversionId: conversion.id, track: publication.track }, 'publication queued');
  return publication;
}
