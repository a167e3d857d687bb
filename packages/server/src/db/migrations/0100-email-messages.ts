import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * The e-mail outbox: every message, delivered over SMTP or only kept here (no SMTP_URL).
 * `data` holds what the template needs (never a secret); a single-use link's token sits in
 * `secret`, encrypted, until the message is delivered or given up. `dedupeKey` records notices
 * that go out once (a plan period's expiry, a purchase's receipt).
 */
export const emailMessages: Migration = {
  name: '0100-email-messages',
  async up(qi, sequelize) {
    await qi.createTable('email_messages', {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: sequelize.literal('gen_random_uuid()') },
      userId: { type: DataTypes.UUID, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      to: { type: DataTypes.STRING(254), allowNull: false },
      subject: { type: DataTypes.STRING(300), allowNull: false },
      data: { type: DataTypes.JSONB, allowNull: false },
      secret: { type: DataTypes.JSONB, allowNull: true },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'queued' },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      dedupeKey: { type: DataTypes.STRING(200), allowNull: true, unique: true },
      sentAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await sequelize.query(`ALTER TABLE email_messages ADD CONSTRAINT email_messages_status_valid CHECK (status IN ('queued', 'sent', 'failed'))`);
    await qi.addIndex('email_messages', ['createdAt'], { name: 'email_messages_created' });
    await qi.addIndex('email_messages', ['status', 'createdAt'], { name: 'email_messages_status_created' });
  },
  async down(qi) {
    await qi.dropTable('email_messages');
  },
};
