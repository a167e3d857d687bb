import { DataTypes } from 'sequelize';
import type { Migration } from './types.js';

/**
 * legal_documents: every published version of the Termos de Uso and the Política de Privacidade
 * (legal/documents.ts); version 1 of each is the text the product ships with, never stored.
 * legal_acceptances: who accepted which versions, when and from where (kept for the account's
 * life: they prove consent). users.termsAcceptedVersion / privacyAcceptedVersion: the latest
 * versions the account accepted, read with the cached user row by the guard that asks again.
 */
export const legalDocuments: Migration = {
  name: '0200-legal-documents',
  async up(qi, sequelize) {
    await sequelize.query(`
      CREATE TABLE legal_documents (
        id UUID PRIMARY KEY,
        kind VARCHAR(16) NOT NULL CHECK (kind IN ('terms', 'privacy')),
        version INTEGER NOT NULL CHECK (version >= 2),
        body TEXT NOT NULL,
        "publishedById" UUID,
        "publishedByEmail" VARCHAR(255),
        "publishedAt" TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (kind, version)
      )`);
    await sequelize.query(`
      CREATE TABLE legal_acceptances (
        id BIGSERIAL PRIMARY KEY,
        "userId" UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        "termsVersion" INTEGER NOT NULL,
        "privacyVersion" INTEGER NOT NULL,
        "acceptedAt" TIMESTAMPTZ NOT NULL DEFAULT now(),
        address VARCHAR(64),
        "userAgent" VARCHAR(512)
      )`);
    await sequelize.query('CREATE INDEX legal_acceptances_user ON legal_acceptances ("userId", id)');
    await qi.addColumn('users', 'termsAcceptedVersion', { type: DataTypes.INTEGER, allowNull: true });
    await qi.addColumn('users', 'privacyAcceptedVersion', { type: DataTypes.INTEGER, allowNull: true });
  },
  async down(qi, sequelize) {
    await qi.removeColumn('users', 'privacyAcceptedVersion');
    await qi.removeColumn('users', 'termsAcceptedVersion');
    await sequelize.query('DROP TABLE IF EXISTS legal_acceptances');
    await sequelize.query('DROP TABLE IF EXISTS legal_documents');
  },
};
