import type { Migration } from './types.js';

/**
 * The nota fiscal de serviço (NFS-e) of each approved purchase, as its provider last answered
 * (docs/nfse.md): one per purchase; `reference` is our id of it at the provider.
 */
export const fiscalNotes: Migration = {
  name: '0211-fiscal-notes',
  async up(_qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE fiscal_notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "purchaseId" uuid NOT NULL UNIQUE REFERENCES purchases (id),
        "userId" uuid NOT NULL REFERENCES users (id),
        provider varchar(16) NOT NULL CHECK (provider IN ('focusnfe')),
        reference varchar(64) NOT NULL UNIQUE,
        status varchar(16) NOT NULL DEFAULT 'processando'
          CHECK (status IN ('processando', 'autorizada', 'erro', 'cancelando', 'cancelada')),
        "providerStatus" varchar(40),
        number varchar(40),
        "verificationCode" varchar(80),
        "pdfUrl" text,
        "xmlUrl" text,
        "errorMessage" text,
        attempts integer NOT NULL DEFAULT 0,
        "requestedAt" timestamptz,
        "authorizedAt" timestamptz,
        "cancelRequestedAt" timestamptz,
        "cancelledAt" timestamptz,
        "lastCheckedAt" timestamptz,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL
      )`);
    await sequelize.query(`CREATE INDEX fiscal_notes_user ON fiscal_notes ("userId")`);
    await sequelize.query(`CREATE INDEX fiscal_notes_open ON fiscal_notes (status) WHERE status IN ('processando', 'cancelando')`);
  },
  async down(_qi, sequelize) {
    await sequelize.query(`DROP TABLE fiscal_notes`);
  },
};
