import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/** Single-use links sent by e-mail (password reset, address confirmation): only a SHA-256 of the token is stored. */
export const emailLinkTokens: Migration = {
  name: '0101-email-link-tokens',
  async up(qi, sequelize) {
    await qi.createTable('email_link_tokens', {
      tokenHash: { type: DataTypes.CHAR(64), primaryKey: true },
      userId: { type: DataTypes.UUID, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      purpose: { type: DataTypes.STRING(24), allowNull: false },
      /** The address the link was sent to (a confirmation confirms this address only). */
      email: { type: DataTypes.STRING(254), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await sequelize.query(
      `ALTER TABLE email_link_tokens ADD CONSTRAINT email_link_tokens_purpose_valid CHECK (purpose IN ('password_reset', 'email_verification'))`,
    );
    await qi.addIndex('email_link_tokens', ['userId', 'purpose'], { name: 'email_link_tokens_user_purpose' });
    await qi.addIndex('email_link_tokens', ['expiresAt'], { name: 'email_link_tokens_expires' });
  },
  async down(qi) {
    await qi.dropTable('email_link_tokens');
  },
};
