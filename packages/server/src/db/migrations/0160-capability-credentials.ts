import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Download tokens and stream tickets record the credential that minted them
 * (accounts/capabilities.ts) in one JSONB column, `credential`, and hold only while it does.
 * Stream tickets kept the credential in three columns of their own; they go. Rows made before
 * have no credential to check: they are deleted (a download token lives an hour, a ticket a
 * minute; a client asks for a new one).
 */
export const capabilityCredentials: Migration = {
  name: '0160-capability-credentials',
  async up(qi, sequelize) {
    await sequelize.query('DELETE FROM download_tokens');
    await sequelize.query('DELETE FROM stream_tickets');
    await qi.addColumn('download_tokens', 'credential', { type: DataTypes.JSONB, allowNull: false });
    await qi.addColumn('stream_tickets', 'credential', { type: DataTypes.JSONB, allowNull: false });
    await qi.removeColumn('stream_tickets', 'apiTokenId');
    await qi.removeColumn('stream_tickets', 'tokenVersion');
    await qi.removeColumn('stream_tickets', 'sessionExpiresAt');
  },
  async down(qi, sequelize) {
    await sequelize.query('DELETE FROM stream_tickets');
    await qi.addColumn('stream_tickets', 'apiTokenId', { type: DataTypes.UUID, allowNull: true, references: { model: 'api_tokens', key: 'id' }, onDelete: 'CASCADE' });
    await qi.addColumn('stream_tickets', 'tokenVersion', { type: DataTypes.INTEGER, allowNull: true });
    await qi.addColumn('stream_tickets', 'sessionExpiresAt', { type: DataTypes.DATE, allowNull: true });
    await qi.removeColumn('stream_tickets', 'credential');
    await qi.removeColumn('download_tokens', 'credential');
  },
};
