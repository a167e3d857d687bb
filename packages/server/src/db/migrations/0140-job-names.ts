import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Job names in one style (`feature:verb`, jobs/names.ts): stored jobs of earlier versions are
 * renamed, so queued conversions and publications run on. Agenda's table exists only once a
 * server has started on the database (it is created after the migrations), hence the check.
 * Publications record the instance that runs them, as conversions do (jobs/claim.ts).
 */
const RENAMED: Array<[string, string]> = [
  ['conversion', 'conversions:run'],
  ['conversion-retention', 'conversions:retention'],
  ['conversion-abandoned-uploads', 'conversions:abandoned-uploads'],
  ['publication', 'publications:run'],
];

async function rename(sequelize: Parameters<Migration['up']>[1], pairs: Array<[string, string]>): Promise<void> {
  const [rows] = await sequelize.query(`SELECT to_regclass('agenda_jobs') IS NOT NULL AS present`);
  if (!(rows as Array<{ present: boolean }>)[0]?.present) return;
  for (const [from, to] of pairs) {
    // A recurring job keeps one row per name: an old row whose new name exists already goes.
    await sequelize.query(`DELETE FROM agenda_jobs WHERE name = :from AND type = 'single' AND EXISTS (SELECT 1 FROM agenda_jobs WHERE name = :to)`, { replacements: { from, to } });
    await sequelize.query(`UPDATE agenda_jobs SET name = :to WHERE name = :from`, { replacements: { from, to } });
  }
}

export const jobNames: Migration = {
  name: '0140-job-names',
  async up(qi, sequelize) {
    await rename(sequelize, RENAMED);
    await qi.addColumn('publications', 'workerName', { type: DataTypes.STRING(255), allowNull: true });
  },
  async down(qi, sequelize) {
    await qi.removeColumn('publications', 'workerName');
    await rename(sequelize, RENAMED.map(([a, b]) => [b, a]));
  },
};
