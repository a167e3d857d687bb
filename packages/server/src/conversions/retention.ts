/**
 * The retention job: the files of conversions older than the retention period go (the rows stay,
 * with canDownload false), and so do those of failed and cancelled conversions still stored an
 * hour after they ended (their runner died, or the store refused at the time). A conversion whose
 * AAB a Play publication is sending (queued or processing) waits for it.
 */
import { Op, QueryTypes, literal, type Sequelize } from 'sequelize';
import type { Logger } from '../logger.js';
import type { Conversion, Models } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import type { ConversionFiles } from './files.js';
import { readConversionSettings } from './settings.js';
import { lockForTransaction } from '../db/locks.js';

export interface RetentionDeps {
  sequelize: Sequelize;
  models: Models;
  settings: SettingsService;
  conversionFiles: ConversionFiles;
  logger: Logger;
}

const ENDED_FILES_GRACE_MS = 60 * 60 * 1000;
/** Rows of the Play publications still to send a conversion's AAB (`conversion`: an SQL expression of its id). */
const activePublicationsSql = (conversion: string) => `SELECT 1 FROM publications p WHERE p."conversionId" = ${conversion} AND p.status IN ('queued', 'processing')`;

/** The advisory lock a new publication of the conversion takes too (play/publications.ts). */
export const publicationLockKey = (conversionId: string) => `publication:${conversionId}`;

export async function purgeExpiredConversions(deps: RetentionDeps, now: Date = new Date()): Promise<number> {
  const { retentionDays } = await readConversionSettings(deps.settings);
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const endedCutoff = new Date(now.getTime() - ENDED_FILES_GRACE_MS);
  const { Conversion: C, DownloadToken } = deps.models;
  const rows = await C.findAll({
    where: {
      filesPurgedAt: null,
      status: { [Op.in]: ['completed', 'failed', 'cancelled'] },
      [Op.and]: [
        {
          [Op.or]: [
            { completedAt: { [Op.lt]: cutoff } },
            { completedAt: null, updatedAt: { [Op.lt]: cutoff } },
            { status: { [Op.in]: ['failed', 'cancelled'] }, completedAt: { [Op.lt]: endedCutoff } },
          ],
        },
        literal(`NOT EXISTS (${activePublicationsSql('"Conversion".id')})`),
      ],
    },
    limit: 1000,
  });
  let purged = 0;
  for (const c of rows) {
    try {
      if (!(await purgeUnlessPublishing(deps, c, now))) continue;
    } catch (err) {
      // The store is unreachable or refused: this row stays for the next run.
      deps.logger.warn({ err, conversionId: c.id }, 'conversion files not purged');
      continue;
    }
    await DownloadToken.destroy({ where: { conversionId: c.id } });
    purged += 1;
  }
  await DownloadToken.destroy({ where: { expiresAt: { [Op.lt]: new Date(now.getTime() - 86_400_000) } } });
  if (purged) deps.logger.info({ purged }, 'conversion files purged');
  return purged;
}

/**
 * Deletes the conversion's files and marks them purged, under the lock a new publication of it
 * takes, so a publication queued since the listing keeps its AAB; false when one is active now.
 */
async function purgeUnlessPublishing(deps: RetentionDeps, c: Conversion, now: Date): Promise<boolean> {
  const { sequelize } = deps;
  return sequelize.transaction(async (transaction) => {
    await lockForTransaction(sequelize, publicationLockKey(c.id), transaction);
    const [active] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM (${activePublicationsSql(':conversionId')}) active`, {
      replacements: { conversionId: c.id },
      transaction,
      type: QueryTypes.SELECT,
    });
    if (Number(active?.n ?? 0) > 0) return false;
    await deps.conversionFiles.deleteAll(c);
    await c.update({ filesPurgedAt: now }, { transaction });
    return true;
  });
}
