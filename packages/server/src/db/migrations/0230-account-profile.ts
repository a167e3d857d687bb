import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * The account's profile (docs/accounts.md "Perfil"): which optional e-mails the customer wants —
 * a failed conversion's notice apart from a finished one's (until now one switch said both, so
 * existing accounts keep what they chose) and product news, off until asked for — and a third
 * kind of e-mailed link: the confirmation of a new address, sent to that address.
 */
export const accountProfile: Migration = {
  name: '0230-account-profile',
  async up(qi, sequelize) {
    await qi.addColumn('users', 'notifyConversionFailures', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true });
    await qi.addColumn('users', 'notifyProductNews', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
    await sequelize.query(`UPDATE users SET "notifyConversionFailures" = "notifyConversions"`);
    await sequelize.query(`ALTER TABLE email_link_tokens DROP CONSTRAINT email_link_tokens_purpose_valid`);
    await sequelize.query(
      `ALTER TABLE email_link_tokens ADD CONSTRAINT email_link_tokens_purpose_valid CHECK (purpose IN ('password_reset', 'email_verification', 'email_change'))`,
    );
  },
  async down(qi, sequelize) {
    await sequelize.query(`DELETE FROM email_link_tokens WHERE purpose = 'email_change'`);
    await sequelize.query(`ALTER TABLE email_link_tokens DROP CONSTRAINT email_link_tokens_purpose_valid`);
    await sequelize.query(`ALTER TABLE email_link_tokens ADD CONSTRAINT email_link_tokens_purpose_valid CHECK (purpose IN ('password_reset', 'email_verification'))`);
    await qi.removeColumn('users', 'notifyProductNews');
    await qi.removeColumn('users', 'notifyConversionFailures');
  },
};
