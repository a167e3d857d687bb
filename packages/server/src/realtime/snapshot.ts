/** The current state of a conversion as live messages, for a client that subscribes late. */
import { CONVERSION_LIMITS, aabFileName, type ConversionUpdate } from '@aabify/shared';
import type { ConversionService } from '../conversions/service.js';

export async function snapshotMessages(service: ConversionService, conversionId: string): Promise<ConversionUpdate[]> {
  const c = await service.conversionById(conversionId);
  if (!c) return [];
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
  const out: ConversionUpdate[] = [{ ...base, type: 'status_change', status: c.status, progress: c.progress, step: c.step ?? undefined }];
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
