import type { Migration } from './types.js';

/**
 * data_exports: the account's "Meus dados" exports (privacy/dataExport.ts). The zip lives in the
 * store under `storageKey` until `expiresAt`; the row stays (status expired) as the record of
 * what was handed out, and goes with the account.
 */
export const dataExports: Migration = {
  name: '0205-data-exports',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE data_exports (
        id UUID PRIMARY KEY,
        "userId" UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        status VARCHAR(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready', 'failed', 'expired')),
        "storageKey" VARCHAR(255),
        size BIGINT,
        error TEXT,
        "requestedAt" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "readyAt" TIMESTAMPTZ,
        "expiresAt" TIMESTAMPTZ
      )`);
    await sequelize.query('CREATE INDEX data_exports_user ON data_exports ("userId", "requestedAt" DESC)');
  },
  async down(_qi, sequelize) {
    await sequelize.query('DROP TABLE IF EXISTS data_exports');
  },
};
