/** Presenting a page of conversions for the admin screens: one queue snapshot for the whole page. */
import type { AdminConversion } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { Conversion } from '../models/index.js';
import { queueInfo, type QueueInfo } from './queueStats.js';
import { readConversionSettings } from './settings.js';
import { presentAdminConversion } from './adminPresenter.js';

export async function presentAdminConversions(ctx: Pick<AppContext, 'settings' | 'conversionStats'>, rows: Conversion[]): Promise<AdminConversion[]> {
  const settings = await readConversionSettings(ctx.settings);
  const active = rows.some((c) => c.status === 'queued' || c.status === 'processing');
  const snapshot = active ? await ctx.conversionStats.snapshot(settings.maxConcurrent) : undefined;
  const average = await ctx.conversionStats.averageProcessingTime();
  return rows.map((c) => {
    let queue: QueueInfo | undefined;
    if (snapshot) queue = queueInfo(snapshot, c.id);
    else {
      queue = { queuePosition: 0, totalInQueue: 0, estimatedTime: 0, averageProcessingTime: average, currentlyProcessing: 0, maxConcurrent: settings.maxConcurrent };
    }
    return presentAdminConversion(c, { queue, retentionDays: settings.retentionDays });
  });
}

/** The owner, included with every admin conversion (deleted accounts too). */
export function ownerInclude(ctx: Pick<AppContext, 'models'>) {
  return { model: ctx.models.User, as: 'user', attributes: ['id', 'email'], paranoid: false, required: false };
}
