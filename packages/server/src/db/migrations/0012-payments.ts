import type { Migration } from './types.js';

/**
 * PIX charges of a purchase at a provider. One provider payment per row (unique provider +
 * providerPaymentId); the row mirrors the provider's answer, the purchase carries the
 * business state.
 */
export const payments: Migration = {
  name: '0012-payments',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "purchaseId" uuid NOT NULL REFERENCES purchases (id) ON DELETE CASCADE,
        "userId" uuid NOT NULL REFERENCES users (id),
        provider varchar(16) NOT NULL CHECK (provider IN ('sandbox', 'mercadopago')),
        "providerPaymentId" varchar(64),
        status varchar(16) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled', 'refunded')),
        "providerStatus" varchar(32),
        "providerStatusDetail" varchar(64),
        "amountCents" integer NOT NULL CHECK ("amountCents" >= 0),
        currency varchar(3) NOT NULL,
        "qrCode" text,
        "qrCodeBase64" text,
        "ticketUrl" text,
        "expiresAt" timestamptz NOT NULL,
        "approvedAt" timestamptz,
        "lastSyncedAt" timestamptz,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL,
        CONSTRAINT payments_provider_id_unique UNIQUE (provider, "providerPaymentId")
      )`);
    await sequelize.query(`CREATE INDEX payments_pending_expiry ON payments ("expiresAt") WHERE status = 'pending'`);
    await sequelize.query(`CREATE INDEX payments_purchase ON payments ("purchaseId")`);
    await sequelize.query(`CREATE INDEX payments_user_created ON payments ("userId", "createdAt" DESC)`);
  },
  async down(qi) {
    await qi.dropTable('payments');
  },
};
