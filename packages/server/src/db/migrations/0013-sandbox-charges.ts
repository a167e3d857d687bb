import type { Migration } from './types.js';

/**
 * The sandbox provider's own books: what a real provider would keep on its side. Kept in the
 * database (not in memory) so every process and a restart see the same charges.
 */
export const sandboxCharges: Migration = {
  name: '0013-sandbox-charges',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE sandbox_charges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "idempotencyKey" varchar(128) NOT NULL UNIQUE,
        status varchar(16) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled', 'refunded')),
        "statusDetail" varchar(64),
        "amountCents" integer NOT NULL,
        description text NOT NULL DEFAULT '',
        "payerEmail" varchar(254),
        "externalReference" varchar(64),
        "qrCode" text NOT NULL,
        "expiresAt" timestamptz NOT NULL,
        "approvedAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
  },
  async down(qi) {
    await qi.dropTable('sandbox_charges');
  },
};
