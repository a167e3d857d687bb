import type { Migration } from './types.js';

/**
 * Billing details (docs/payments.md): the account's current ones (Conta › Dados de faturamento),
 * and each purchase's copy as they were when it was bought, so a later edit never rewrites an
 * old receipt or note.
 */
export const billingDetails: Migration = {
  name: '0210-billing-details',
  async up(_qi, sequelize) {
    await sequelize.query(`ALTER TABLE users ADD COLUMN "billingDetails" jsonb`);
    await sequelize.query(`ALTER TABLE purchases ADD COLUMN "billingSnapshot" jsonb`);
  },
  async down(_qi, sequelize) {
    await sequelize.query(`ALTER TABLE purchases DROP COLUMN "billingSnapshot"`);
    await sequelize.query(`ALTER TABLE users DROP COLUMN "billingDetails"`);
  },
};
