/** The current state of a conversion as live messages, for a client that subscribes late. */
import { CONVERSION_LIMITS, outputFileName, type ConversionUpdate } from '@aabify/shared';
import type { Conversion, Models } from '../models/index.js';
import type { ConversionEvents } from '../conversions/events.js';
import { queuePositionFields, type QueueStats } from '../conversions/queueStats.js';

export interface SnapshotDeps {
  models: Models;
  conversionEvents: ConversionEvents;
  conversionStats: QueueStats;
}

/**
 * The subscriber is already in the conversion's room, so live messages may arrive while the
 * snapshot is being built (it awaits the queue figures). A snapshot older than a message the
 * client already has would move it backwards (processing → queued), so the state is read again
 * and the snapshot rebuilt until it is still current; the caller sends it without awaiting
 * anything else, so every later live message is newer than it.
 */
export async function snapshotMessages(deps: SnapshotDeps, conversionId: string): Promise<ConversionUpdate[]> {
  for (let attempt = 1; ; attempt++) {
    const built = await snapshotOnce(deps, conversionId);
    if (!built) return [];
    const now = await deps.models.Conversion.findByPk(conversionId);
    const unchanged = now !== null && now.status === built.status && now.progress === built.progress;
    if (unchanged || attempt >= 5) return built.messages;
  }
}

async function snapshotOnce(deps: SnapshotDeps, conversionId: string): Promise<{ status: string; progress: number; messages: ConversionUpdate[] } | undefined> {
  const c = await deps.models.Conversion.findByPk(conversionId);
  if (!c) return undefined;
  return { status: c.status, progress: c.progress, messages: await messagesOf(deps, c) };
}

async function messagesOf(deps: SnapshotDeps, c: Conversion): Promise<ConversionUpdate[]> {
  const conversionId = c.id;
  const timestamp = new Date().toISOString();
  const base = { conversionId, timestamp };
  if (c.status === 'completed') {
    return [
      {
        ...base,
        type: 'completed',
        status: 'completed',
        progress: 100,
        filename: outputFileName(c),
        fileSize: c.aabSize ?? undefined,
        canDownload: c.canDownload,
        expiresIn: CONVERSION_LIMITS.downloadTokenTtlSeconds,
      },
    ];
  }
  if (c.status === 'failed') return [{ ...base, type: 'error', status: 'failed', error: c.error ?? undefined, message: c.error ?? undefined, code: c.errorCode ?? undefined }];
  const progress = Math.max(c.progress, deps.conversionEvents.progressOf(conversionId, c.status) ?? 0);
  const out: ConversionUpdate[] = [{ ...base, type: 'status_change', status: c.status, progress, step: c.step ?? undefined }];
  if (c.status === 'queued' || c.status === 'processing') {
    const q = await deps.conversionStats.infoOf(c);
    out.push({
      ...base,
      type: 'queue_position',
      status: c.status,
      ...queuePositionFields(q),
    });
  }
  return out;
}
