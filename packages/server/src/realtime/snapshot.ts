/** The current state of a conversion as live messages, for a client that subscribes late. */
import { CONVERSION_LIMITS, aabFileName, type ConversionUpdate } from '@aabify/shared';
import type { ConversionService } from '../conversions/service.js';

/**
 * The subscriber is already in the conversion's room, so live messages may arrive while the
 * snapshot is being built (it awaits the queue figures). A snapshot older than a message the
 * client already has would move it backwards (processing → queued), so the state is read again
 * and the snapshot rebuilt until it is still current; the caller sends it without awaiting
 * anything else, so every later live message is newer than it.
 */
export async function snapshotMessages(service: ConversionService, conversionId: string): Promise<ConversionUpdate[]> {
  for (let attempt = 1; ; attempt++) {
    const built = await snapshotOnce(service, conversionId);
    if (!built) return [];
    const now = await service.conversionById(conversionId);
    const unchanged = now !== null && now.status === built.status && now.progress === built.progress;
    if (unchanged || attempt >= 5) return built.messages;
  }
}

async function snapshotOnce(service: ConversionService, conversionId: string): Promise<{ status: string; progress: number; messages: ConversionUpdate[] } | undefined> {
  const c = await service.conversionById(conversionId);
  if (!c) return undefined;
  return { status: c.status, progress: c.progress, messages: await messagesOf(service, c) };
}

async function messagesOf(service: ConversionService, c: NonNullable<Awaited<ReturnType<ConversionService['conversionById']>>>): Promise<ConversionUpdate[]> {
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
        filename: aabFileName(c.fileName),
        fileSize: c.aabSize ?? undefined,
        canDownload: c.canDownload,
        expiresIn: CONVERSION_LIMITS.downloadTokenTtlSeconds,
      },
    ];
  }
  if (c.status === 'failed') return [{ ...base, type: 'error', status: 'failed', error: c.error ?? undefined, message: c.error ?? undefined, code: c.errorCode ?? undefined }];
  const progress = Math.max(c.progress, service.events.progressOf(conversionId, c.status) ?? 0);
  const out: ConversionUpdate[] = [{ ...base, type: 'status_change', status: c.status, progress, step: c.step ?? undefined }];
  if (c.status === 'queued' || c.status === 'processing') {
    const q = await service.queueInfoOf(c);
    out.push({
      ...base,
      type: 'queue_position',
      status: c.status,
      position: q.queuePosition,
      queuePosition: q.queuePosition,
      estimatedTime: q.estimatedTime,
      totalWaiting: q.totalInQueue,
      averageProcessingTime: q.averageProcessingTime,
      currentlyProcessing: q.currentlyProcessing,
      maxConcurrent: q.maxConcurrent,
    });
  }
  return out;
}
