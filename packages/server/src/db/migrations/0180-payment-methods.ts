import type { Migration } from './types.js';

/**
 * Card, boleto and renewing subscriptions beside PIX, and Stripe beside Mercado Pago
 * (docs/payments.md):
 * - purchases and payments may be Stripe's; each payment records its method (pix, card,
 *   boleto, other) and card installments; only PIX charges have our own expiry;
 * - a purchase made through a hosted checkout keeps the checkout's id and address (the
 *   provider's page, where its payments are made) and when it was last read back;
 * - renewals: an automatic renewal of a subscription plan at a provider (Mercado Pago's
 *   preapproval, a Stripe subscription); each charge it makes is a purchase of its own, so a
 *   charge applies the plan once and is refunded alone;
 * - the sandbox keeps hosted checkouts and renewals too (what a provider keeps on its side).
 */
export const paymentMethods: Migration = {
  name: '0180-payment-methods',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE renewals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "userId" uuid NOT NULL REFERENCES users (id),
        "planId" uuid REFERENCES plans (id) ON DELETE SET NULL,
        "planSnapshot" jsonb NOT NULL,
        provider varchar(16) NOT NULL CHECK (provider IN ('sandbox', 'mercadopago', 'stripe')),
        "providerRenewalId" varchar(128),
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'cancelled')),
        "amountCents" integer NOT NULL CHECK ("amountCents" > 0),
        currency varchar(3) NOT NULL CHECK (currency IN ('BRL', 'USD', 'EUR')),
        "frequencyMonths" integer NOT NULL CHECK ("frequencyMonths" > 0),
        "checkoutUrl" text,
        "lastChargedAt" timestamptz,
        "lastFailureAt" timestamptz,
        "lastFailureReason" text,
        "cancelledAt" timestamptz,
        "cancelReason" text,
        "lastSyncedAt" timestamptz,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL,
        CONSTRAINT renewals_provider_id_unique UNIQUE (provider, "providerRenewalId")
      )`);
    await sequelize.query(`CREATE INDEX renewals_user_created ON renewals ("userId", "createdAt" DESC)`);

    await sequelize.query(`ALTER TABLE purchases DROP CONSTRAINT purchases_provider_check`);
    await sequelize.query(`ALTER TABLE purchases ADD CONSTRAINT purchases_provider_check CHECK (provider IN ('sandbox', 'mercadopago', 'stripe', 'manual'))`);
    await sequelize.query(`
      ALTER TABLE purchases
        ADD COLUMN method varchar(16) CHECK (method IN ('pix', 'card', 'boleto', 'other')),
        ADD COLUMN installments integer CHECK (installments > 0),
        ADD COLUMN "checkoutId" varchar(128),
        ADD COLUMN "checkoutUrl" text,
        ADD COLUMN "renewalId" uuid REFERENCES renewals (id),
        ADD COLUMN "lastSyncedAt" timestamptz`);
    await sequelize.query(`CREATE INDEX purchases_renewal ON purchases ("renewalId") WHERE "renewalId" IS NOT NULL`);
    await sequelize.query(`UPDATE purchases SET method = 'pix' WHERE provider <> 'manual'`);

    await sequelize.query(`ALTER TABLE payments DROP CONSTRAINT payments_provider_check`);
    await sequelize.query(`ALTER TABLE payments ADD CONSTRAINT payments_provider_check CHECK (provider IN ('sandbox', 'mercadopago', 'stripe'))`);
    await sequelize.query(`
      ALTER TABLE payments
        ADD COLUMN method varchar(16) NOT NULL DEFAULT 'pix' CHECK (method IN ('pix', 'card', 'boleto', 'other')),
        ADD COLUMN installments integer CHECK (installments > 0),
        ALTER COLUMN "expiresAt" DROP NOT NULL`);

    await sequelize.query(`
      CREATE TABLE sandbox_checkouts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "idempotencyKey" varchar(128) NOT NULL UNIQUE,
        kind varchar(16) NOT NULL CHECK (kind IN ('payment', 'renewal')),
        status varchar(16) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'authorized', 'cancelled')),
        "amountCents" integer NOT NULL CHECK ("amountCents" > 0),
        currency varchar(3) NOT NULL,
        description text NOT NULL DEFAULT '',
        "payerEmail" varchar(254),
        "externalReference" varchar(64),
        "returnUrl" text NOT NULL,
        "frequencyMonths" integer,
        "maxInstallments" integer NOT NULL DEFAULT 1,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await sequelize.query(`
      ALTER TABLE sandbox_charges
        ADD COLUMN method varchar(16) NOT NULL DEFAULT 'pix',
        ADD COLUMN currency varchar(3) NOT NULL DEFAULT 'BRL',
        ADD COLUMN installments integer,
        ADD COLUMN "checkoutId" uuid REFERENCES sandbox_checkouts (id),
        ALTER COLUMN "qrCode" DROP NOT NULL,
        ALTER COLUMN "expiresAt" DROP NOT NULL`);
    await sequelize.query(`CREATE INDEX sandbox_charges_checkout ON sandbox_charges ("checkoutId") WHERE "checkoutId" IS NOT NULL`);
  },
  async down(_qi, sequelize) {
    await sequelize.query(`DROP INDEX sandbox_charges_checkout`);
    await sequelize.query(`ALTER TABLE sandbox_charges DROP COLUMN "checkoutId", DROP COLUMN installments, DROP COLUMN currency, DROP COLUMN method`);
    await sequelize.query(`DROP TABLE sandbox_checkouts`);
    await sequelize.query(`DELETE FROM payments WHERE provider = 'stripe' OR "expiresAt" IS NULL`);
    await sequelize.query(`ALTER TABLE payments DROP COLUMN installments, DROP COLUMN method, ALTER COLUMN "expiresAt" SET NOT NULL`);
    await sequelize.query(`ALTER TABLE payments DROP CONSTRAINT payments_provider_check`);
    await sequelize.query(`ALTER TABLE payments ADD CONSTRAINT payments_provider_check CHECK (provider IN ('sandbox', 'mercadopago'))`);
    await sequelize.query(`DELETE FROM purchases WHERE provider = 'stripe'`);
    await sequelize.query(`ALTER TABLE purchases DROP COLUMN "lastSyncedAt", DROP COLUMN "renewalId", DROP COLUMN "checkoutUrl", DROP COLUMN "checkoutId", DROP COLUMN installments, DROP COLUMN method`);
    await sequelize.query(`ALTER TABLE purchases DROP CONSTRAINT purchases_provider_check`);
    await sequelize.query(`ALTER TABLE purchases ADD CONSTRAINT purchases_provider_check CHECK (provider IN ('sandbox', 'mercadopago', 'manual'))`);
    await sequelize.query(`DROP TABLE renewals`);
  },
};
