/**
 * Single-use links sent by e-mail: password reset (1 hour), address confirmation (7 days) and a
 * new address's confirmation (24 hours).
 * The token (256 random bits) exists in the e-mail only; the database keeps its SHA-256, so a
 * copy of the table opens nothing. Using a link is one UPDATE … RETURNING: two parallel uses
 * of the same link cannot both succeed.
 */
import { randomBytes } from 'node:crypto';
import { Op, QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { hashApiToken } from '../accounts/tokens.js';
import type { EmailLinkPurpose, Models, User } from '../models/index.js';

export const LINK_VALIDITY_MS: Record<EmailLinkPurpose, number> = {
  password_reset: 60 * 60 * 1000,
  email_verification: 7 * 24 * 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

export interface IssuedLink {
  token: string;
  expiresAt: Date;
}

/** A fast hash is enough for 256 random bits, and makes lookup by hash possible (as for API tokens). */
export const hashLinkToken = hashApiToken;

/** A new link for the user; older unused links of the same purpose stop working. */
export async function issueEmailLink(
  models: Pick<Models, 'EmailLinkToken'>,
  user: Pick<User, 'id' | 'email'>,
  purpose: EmailLinkPurpose,
  opts: { transaction?: Transaction; now?: Date } = {},
): Promise<IssuedLink> {
  const now = opts.now ?? new Date();
  await models.EmailLinkToken.update(
    { usedAt: now },
    { where: { userId: user.id, purpose, usedAt: null }, transaction: opts.transaction },
  );
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + LINK_VALIDITY_MS[purpose]);
  await models.EmailLinkToken.create(
    { tokenHash: hashLinkToken(token), userId: user.id, purpose, email: user.email, expiresAt },
    { transaction: opts.transaction },
  );
  return { token, expiresAt };
}

export interface UsedLink {
  userId: string;
  email: string;
}

/** Marks the link used and answers whose it is; null when unknown, used, expired or of another purpose. */
export async function useEmailLink(
  sequelize: Sequelize,
  token: string,
  purpose: EmailLinkPurpose,
  transaction: Transaction,
): Promise<UsedLink | null> {
  const rows = await sequelize.query<UsedLink>(
    `UPDATE email_link_tokens SET "usedAt" = now()
      WHERE "tokenHash" = :hash AND purpose = :purpose AND "usedAt" IS NULL AND "expiresAt" > now()
      RETURNING "userId", email`,
    { replacements: { hash: hashLinkToken(token), purpose }, type: QueryTypes.SELECT, transaction },
  );
  return rows[0] ?? null;
}

/** Whose link it is, without using it; null when unknown, used, expired or of another purpose. */
export async function activeEmailLink(models: Pick<Models, 'EmailLinkToken'>, token: string, purpose: EmailLinkPurpose): Promise<UsedLink | null> {
  const row = await models.EmailLinkToken.findOne({
    where: { tokenHash: hashLinkToken(token), purpose, usedAt: null, expiresAt: { [Op.gt]: new Date() } },
  });
  return row ? { userId: row.userId, email: row.email } : null;
}

/** Whether a link of this purpose was ever issued with this token (used or not). */
export async function knownEmailLink(models: Pick<Models, 'EmailLinkToken'>, token: string, purpose: EmailLinkPurpose) {
  return models.EmailLinkToken.findOne({ where: { tokenHash: hashLinkToken(token), purpose } });
}

/** Ends every unused link of the user for a purpose (after a reset, older reset links die). */
export async function revokeEmailLinks(models: Pick<Models, 'EmailLinkToken'>, userId: string, purpose: EmailLinkPurpose, transaction?: Transaction): Promise<void> {
  await models.EmailLinkToken.update({ usedAt: new Date() }, { where: { userId, purpose, usedAt: null }, transaction });
}

/** Removes links expired for over a day (the mail sweep job). */
export async function purgeEmailLinks(models: Pick<Models, 'EmailLinkToken'>, now: Date = new Date()): Promise<number> {
  return models.EmailLinkToken.destroy({ where: { expiresAt: { [Op.lt]: new Date(now.getTime() - 24 * 3600 * 1000) } } });
}
