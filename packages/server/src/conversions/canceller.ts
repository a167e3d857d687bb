/**
 * Cancelling a pending, queued or processing conversion: the row first (its credit given back in
 * the same transaction), then whichever process runs its engine is told to stop. The uploaded
 * files go at once when nothing runs it; a running one's go when its runner has let go of its
 * copies (runner.ts), so cancel-and-upload cannot grow the store. An admin cancelling a
 * customer's conversion passes `audit`: the cancellation is recorded in its transaction.
 */
import type { Sequelize } from 'sequelize';
import { CONVERSION_MESSAGES, type ConversionStatus } from '@aabify/shared';
import type { Conversion, Models } from '../models/index.js';
import type { JobQueue } from '../jobs/queue.js';
import { cancelJobFor } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import type { Metrics } from '../ops/metrics.js';
import { ApiError } from '../http/errors.js';
import { settleCredit } from './credits.js';
import type { ConversionEvents } from './events.js';
import type { ConversionFiles } from './files.js';
import type { ConversionLogWriter } from './logWriter.js';
import type { QueueBroadcaster } from './queueBroadcaster.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';

export interface CancelDeps {
  sequelize: Sequelize;
  models: Models;
  queue: JobQueue;
  metrics: Metrics;
  conversionEvents: ConversionEvents;
  conversionFiles: ConversionFiles;
  conversionLogs: ConversionLogWriter;
  queueBroadcaster: QueueBroadcaster;
}

export interface CancelOptions {
  /** Who cancelled someone else's conversion, for the audit trail (and why: `details`). */
  audit?: { actor: AuditActor; details?: Record<string, unknown> };
}

export async function cancelConversion(deps: CancelDeps, id: string, opts: CancelOptions = {}): Promise<Conversion> {
  const { models, sequelize } = deps;
  let previous: ConversionStatus | undefined;
  const c = await sequelize.transaction(async (transaction) => {
    const row = await models.Conversion.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!row) throw ApiError.notFound(CONVERSION_MESSAGES.notFound, 'CONVERSION_NOT_FOUND');
    if (!['pending', 'queued', 'processing'].includes(row.status)) throw ApiError.conflict(CONVERSION_MESSAGES.cannotCancel, 'CONVERSION_NOT_CANCELLABLE');
    previous = row.status;
    const before = { status: row.status, creditState: row.creditState };
    await settleCredit(models, row, 'returned', transaction);
    await row.update({ status: 'cancelled', cancelledAt: new Date(), completedAt: new Date(), creditState: row.creditState, workerName: null }, { transaction });
    if (opts.audit) {
      await recordAudit(
        deps,
        {
          action: 'conversion.cancelled',
          actor: opts.audit.actor,
          target: { type: 'conversion', id: row.id, label: row.fileName },
          accountId: row.userId,
          before,
          after: { status: row.status, creditState: row.creditState },
          details: opts.audit.details,
        },
        { transaction },
      );
    }
    return row;
  });
  deps.metrics.conversionFinished('cancelled');
  deps.conversionEvents.requestCancel(id);
  if (previous !== 'processing') {
    await deps.conversionFiles.discardInputs(id);
    await cancelJobFor(deps.queue, JOBS.conversionRun, 'conversionId', id).catch(() => undefined);
  }
  await deps.conversionLogs.write(id, 'warning', CONVERSION_MESSAGES.cancelled, 'cancel');
  deps.conversionEvents.update({ type: 'status_change', conversionId: id, timestamp: new Date().toISOString(), status: 'cancelled', progress: c.progress, message: CONVERSION_MESSAGES.cancelled });
  deps.queueBroadcaster.changed();
  return (await models.Conversion.findByPk(id)) ?? c;
}
