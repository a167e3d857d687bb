/**
 * The upload keystore kept in a user's account. Stored only after the engine opened it with
 * the given passwords (so a conversion never fails on a typo weeks later), encrypted at rest
 * with AES-256-GCM (data dir key, the user id as additional data: a row copied onto another
 * user does not open). Nothing here returns the key or its passwords, except `signingKeyFor`,
 * which hands them to the engine for one conversion. Saving and removing are recorded in the
 * audit trail with the certificate's public facts.
 */
import type { Sequelize } from 'sequelize';
import { ConverterError, isConverterError } from '@aabify/converter';
import { KEYSTORE_MESSAGES, type KeystoreMetadata, type KeystoreUpload, type ParsedOptions } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { ServerSecrets } from '../secrets.js';
import type { KeystoreOpener } from './opener.js';
import { ApiError } from '../http/errors.js';
import type { Models, UserKeystore } from '../models/index.js';
import { encryptJson, keyRingOf, openJson } from '../settings/crypto.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';

interface KeystoreSecret {
  keystore: string;
  storePassword: string;
  keyPassword?: string;
}

export interface StoredSigningKey {
  keystore: Uint8Array;
  storePassword: string;
  alias: string;
  keyPassword?: string;
}

type Keystores = { models: Pick<Models, 'UserKeystore'> };
type KeystoreWrites = Keystores & { sequelize: Sequelize; logger: Logger };

/** What the audit trail keeps of an upload keystore: the certificate's public facts. */
function auditView(k: UserKeystore): Record<string, unknown> {
  return { alias: k.alias, certificateSha256: k.certificateSha256, subject: k.subject, notAfter: k.notAfter, fileName: k.fileName };
}

const auditTarget = (userId: string, k: Pick<UserKeystore, 'alias'> | null) => ({ type: 'keystore' as const, id: userId, label: k?.alias ?? null });

const aad = (userId: string): string => `user-keystore:${userId}`;

/** Additional data of a user's keystore ciphertext (also for re-encryption, settings/rotation.ts). */
export const keystoreAad = aad;

export function presentKeystore(k: UserKeystore): KeystoreMetadata {
  return {
    alias: k.alias,
    format: k.format,
    keyAlgorithm: k.keyAlgorithm,
    keySize: k.keySize,
    subject: k.subject,
    certificateSha1: k.certificateSha1,
    certificateSha256: k.certificateSha256,
    notAfter: k.notAfter.toISOString(),
    fileName: k.fileName,
    createdAt: k.createdAt.toISOString(),
    updatedAt: k.updatedAt.toISOString(),
  };
}

/**
 * Opens the keystore with the engine in a worker (keystores/opener.ts: time budget, one per
 * user); the engine's errors become a 422 with its pt-BR message.
 */
export async function saveKeystore(ctx: KeystoreWrites & { keystores: KeystoreOpener; secrets: ServerSecrets }, actor: AuditActor, userId: string, input: KeystoreUpload): Promise<UserKeystore> {
  const bytes = Buffer.from(input.keystore, 'base64');
  let key;
  try {
    key = await ctx.keystores.open(userId, {
      keystore: bytes,
      storePassword: input.storePassword,
      ...(input.alias ? { alias: input.alias } : {}),
      ...(input.keyPassword ? { keyPassword: input.keyPassword } : {}),
    });
  } catch (e) {
    if (isConverterError(e)) throw new ApiError(422, e.code, e.message, e.code === 'KEYSTORE_ALIAS' && e.detail ? { details: e.detail } : {});
    throw e;
  }
  const secret: KeystoreSecret = {
    keystore: bytes.toString('base64'),
    storePassword: input.storePassword,
    ...(input.keyPassword ? { keyPassword: input.keyPassword } : {}),
  };
  const row = {
    userId,
    secret: encryptJson(secret, ctx.secrets.encryptionKey, aad(userId)),
    alias: key.alias,
    format: key.format,
    keyAlgorithm: key.keyAlgorithm,
    keySize: key.keySize,
    subject: key.subject.slice(0, 1024),
    certificateSha1: key.certificateSha1,
    certificateSha256: key.certificateSha256,
    notAfter: new Date(key.notAfter),
    fileName: input.fileName || null,
  };
  const { UserKeystore } = ctx.models;
  const saved = await ctx.sequelize.transaction(async (transaction) => {
    const previous = await UserKeystore.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    await UserKeystore.upsert(row, { transaction });
    const stored = (await UserKeystore.findByPk(userId, { transaction }))!;
    await recordAudit(
      ctx,
      { action: 'keystore.saved', actor, target: auditTarget(userId, stored), accountId: userId, before: previous ? auditView(previous) : null, after: auditView(stored) },
      { transaction },
    );
    return stored;
  });
  ctx.logger.info({ userId, alias: key.alias, sha256: key.certificateSha256 }, 'upload keystore saved');
  return saved;
}

export async function findKeystore(ctx: Keystores, userId: string): Promise<UserKeystore | null> {
  return ctx.models.UserKeystore.findByPk(userId);
}

export async function deleteKeystore(ctx: KeystoreWrites, actor: AuditActor, userId: string): Promise<boolean> {
  const removed = await ctx.sequelize.transaction(async (transaction) => {
    const row = await ctx.models.UserKeystore.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!row) return false;
    await row.destroy({ transaction });
    await recordAudit(ctx, { action: 'keystore.removed', actor, target: auditTarget(userId, row), accountId: userId, before: auditView(row) }, { transaction });
    return true;
  });
  if (removed) ctx.logger.info({ userId }, 'upload keystore deleted');
  return removed;
}

/** What the engine needs to sign one conversion; BAD_KEYSTORE when the keystore is gone. */
export async function signingKeyFor(ctx: Keystores & { secrets: ServerSecrets }, userId: string): Promise<StoredSigningKey> {
  const row = await findKeystore(ctx, userId);
  if (!row) throw new ConverterError('BAD_KEYSTORE', KEYSTORE_MESSAGES.removedBeforeSigning);
  const secret = openJson(row.secret, keyRingOf(ctx.secrets), aad(userId)).value as KeystoreSecret;
  return {
    keystore: Buffer.from(secret.keystore, 'base64'),
    storePassword: secret.storePassword,
    alias: row.alias,
    ...(secret.keyPassword ? { keyPassword: secret.keyPassword } : {}),
  };
}

/** `options.sign` asks for the account's keystore: without one, the options are refused (400). */
export async function requireKeystoreForSigning(ctx: Keystores, userId: string, parsed: ParsedOptions): Promise<ParsedOptions> {
  if (!parsed.ok || parsed.options.sign !== true || (await findKeystore(ctx, userId))) return parsed;
  return { ok: false, message: KEYSTORE_MESSAGES.requiredForSigning, fields: { 'options.sign': KEYSTORE_MESSAGES.requiredForSigning } };
}
