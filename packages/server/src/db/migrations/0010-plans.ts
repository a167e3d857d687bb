import type { Migration } from './types.js';

/**
 * Plans for sale. Money in integer cents with its currency. A credit plan has credits and no
 * duration, a subscription a duration in months and no credits (checked). salesCount and
 * totalRevenueCents count the plan's approved purchases, kept in the same transaction as the
 * approval or refund that changes them.
 */
export const plans: Migration = {
  name: '0010-plans',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE plans (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(100) NOT NULL,
        description text NOT NULL DEFAULT '',
        type varchar(16) NOT NULL CHECK (type IN ('credit', 'subscription')),
        "priceCents" integer NOT NULL CHECK ("priceCents" >= 0),
        currency varchar(3) NOT NULL DEFAULT 'BRL' CHECK (currency IN ('BRL', 'USD', 'EUR')),
        credits integer,
        "durationMonths" integer,
        features jsonb NOT NULL DEFAULT '[]'::jsonb,
        "isPopular" boolean NOT NULL DEFAULT false,
        "displayOrder" integer NOT NULL DEFAULT 0,
        "isActive" boolean NOT NULL DEFAULT true,
        "salesCount" integer NOT NULL DEFAULT 0 CHECK ("salesCount" >= 0),
        "totalRevenueCents" bigint NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL,
        CONSTRAINT plans_type_details CHECK (
          (type = 'credit' AND credits > 0 AND "durationMonths" IS NULL) OR
          (type = 'subscription' AND "durationMonths" > 0 AND credits IS NULL)
        )
      )`);
    await sequelize.query(`CREATE INDEX plans_active_order ON plans ("isActive", "displayOrder")`);
  },
  async down(qi) {
    await qi.dropTable('plans');
  },
};
