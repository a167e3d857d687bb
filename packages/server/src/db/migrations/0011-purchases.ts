import type { Migration } from './types.js';

/**
 * Purchases of a plan by a user, with a snapshot of the plan as sold, and every status
 * change written to purchase_transitions with its time and reason. A purchase reaches each
 * status at most once (unique purchaseId + toStatus): the database itself refuses a second
 * approval, whatever the code above it does.
 */
export const purchases: Migration = {
  name: '0011-purchases',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE purchases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "userId" uuid NOT NULL REFERENCES users (id),
        "planId" uuid REFERENCES plans (id) ON DELETE SET NULL,
        "planSnapshot" jsonb NOT NULL,
        "amountCents" integer NOT NULL CHECK ("amountCents" >= 0),
        currency varchar(3) NOT NULL CHECK (currency IN ('BRL', 'USD', 'EUR')),
        status varchar(16) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled', 'refunded')),
        provider varchar(16) NOT NULL CHECK (provider IN ('sandbox', 'mercadopago', 'manual')),
        notes text,
        "planGrant" jsonb,
        "appliedAt" timestamptz,
        "approvedAt" timestamptz,
        "rejectedAt" timestamptz,
        "cancelledAt" timestamptz,
        "refundedAt" timestamptz,
        "rejectionReason" text,
        "refundReason" text,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL
      )`);
    await sequelize.query(`CREATE INDEX purchases_user_created ON purchases ("userId", "createdAt" DESC)`);
    await sequelize.query(`CREATE INDEX purchases_status_created ON purchases (status, "createdAt" DESC)`);
    await sequelize.query(`CREATE INDEX purchases_plan_status ON purchases ("planId", status)`);
    await sequelize.query(`CREATE INDEX purchases_approved_at ON purchases ("approvedAt") WHERE status = 'approved'`);
    await sequelize.query(`
      CREATE TABLE purchase_transitions (
        id bigserial PRIMARY KEY,
        "purchaseId" uuid NOT NULL REFERENCES purchases (id) ON DELETE CASCADE,
        "fromStatus" varchar(16),
        "toStatus" varchar(16) NOT NULL,
        reason text NOT NULL,
        actor varchar(80) NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT purchase_transitions_once UNIQUE ("purchaseId", "toStatus")
      )`);
  },
  async down(qi) {
    await qi.dropTable('purchase_transitions');
    await qi.dropTable('purchases');
  },
};
