/**
 * Retention of the audit trail (job `audit:retention`): events older than the
 * `audit.retentionDays` setting go, in batches, each in a transaction that names the period in
 * the session setting the database's trigger checks (migration 0170): it lets through only rows
 * older than that period, so no other path — and no mistake here — can delete a younger event.
 * What was removed is itself recorded.
 */
import { QueryTypes } from 'sequelize';
import { AUDIT_LIMITS } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { SYSTEM_ACTOR } from './actor.js';
import { recordAudit } from './recorder.js';

const BATCH = 5000;

/** Deletes the events past retention; answers how many went. */
export async function purgeExpiredAuditEvents(ctx: Pick<AppContext, 'sequelize' | 'settings' | 'logger'>): Promise<number> {
  const days = (await ctx.settings.get('audit.retentionDays')) ?? AUDIT_LIMITS.retentionDaysDefault;
  let total = 0;
  for (;;) {
    const deleted = await ctx.sequelize.transaction(async (transaction) => {
      await ctx.sequelize.query("SELECT set_config('aabify.audit_retention_days', :days, true)", { replacements: { days: String(days) }, transaction, type: QueryTypes.SELECT });
      const rows = await ctx.sequelize.query<{ id: string }>(
        `DELETE FROM audit_events WHERE id IN (
           SELECT id FROM audit_events WHERE at < now() - make_interval(days => :days) ORDER BY id LIMIT :batch
         ) RETURNING id`,
        { replacements: { days, batch: BATCH }, transaction, type: QueryTypes.SELECT },
      );
      return rows.length;
    });
    total += deleted;
    if (deleted < BATCH) break;
  }
  if (total > 0) {
    await recordAudit(ctx, { action: 'audit.purged', actor: SYSTEM_ACTOR, target: { type: 'audit', id: null }, details: { deleted: total, olderThanDays: days } });
    ctx.logger.info({ deleted: total, olderThanDays: days }, 'audit events past retention removed');
  }
  return total;
}
