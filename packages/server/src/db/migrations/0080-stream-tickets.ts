import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * Single-use tickets for the conversion event stream (`?token=`): only a SHA-256 is stored;
 * `usedAt` is set by the one request that redeems it. The credential the ticket was minted
 * with (session tokenVersion or API token) is kept so a revoked one cannot open a stream.
 */
export const streamTickets: Migration = {
  name: '0080-stream-tickets',
  async up(qi) {
    await qi.createTable('stream_tickets', {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      conversionId: { type: DataTypes.UUID, allowNull: false, references: { model: 'conversions', key: 'id' }, onDelete: 'CASCADE' },
      apiTokenId: { type: DataTypes.UUID, allowNull: true, references: { model: 'api_tokens', key: 'id' }, onDelete: 'CASCADE' },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: true },
      sessionExpiresAt: { type: DataTypes.DATE, allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex('stream_tickets', ['expiresAt'], { name: 'stream_tickets_expires' });
    await qi.addIndex('stream_tickets', ['userId'], { name: 'stream_tickets_user' });
  },
  async down(qi) {
    await qi.dropTable('stream_tickets');
  },
};
