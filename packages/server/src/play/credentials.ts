/**
 * The Google Play service-account key kept in a user's account, stored like the upload
 * keystore (keystores/service.ts): checked first (a JSON service-account key with an RSA
 * private key), then sealed with AES-256-GCM under the data dir's key with the user id as
 * additional data. Only the client e-mail, project and key id are kept in the clear and shown;
 * nothing returns the key but `playKeyFor`, which hands it to one publication or test. Saving
 * and removing are recorded in the audit trail (who the key is, never the key).
 */
import type { Sequelize } from 'sequelize';
import { isPlayError, parseServiceAccountKey, serviceAccountJson, testEditAccess, type PlayEndpoints, type PlayError, type ServiceAccountKey } from '@aabify/converter/play';
import { PLAY_MESSAGES, VERSION_CODE_FROM_PLAY, type ParsedOptions, type PlayCredentialsMetadata } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ServerSecrets } from '../secrets.js';
import { ApiError } from '../http/errors.js';
import type { Models, PlayCredential } from '../models/index.js';
import { encryptJson, keyRingOf, openJson } from '../settings/crypto.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';

type Credentials = { models: Pick<Models, 'PlayCredential'> };
type CredentialWrites = Credentials & { sequelize: Sequelize; logger: Logger };

/** What the audit trail keeps of a Play key: who it is, never the key. */
const auditView = (row: PlayCredential): Record<string, unknown> => ({ clientEmail: row.clientEmail, projectId: row.projectId, privateKeyId: row.privateKeyId });
const auditTarget = (userId: string, row: PlayCredential) => ({ type: 'play_key' as const, id: userId, label: row.clientEmail });

/** Additional data of a user's Play key ciphertext (also for re-encryption, settings/rotation.ts). */
export const playCredentialsAad = (userId: string): string => `play-credentials:${userId}`;

export function presentPlayCredentials(row: PlayCredential): PlayCredentialsMetadata {
  return {
    clientEmail: row.clientEmail,
    projectId: row.projectId,
    privateKeyId: row.privateKeyId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastTestedAt: row.lastTestedAt ? row.lastTestedAt.toISOString() : null,
    lastTestedPackage: row.lastTestedPackage ?? null,
  };
}

export function playEndpoints(ctx: { config: Pick<Config, 'googlePlay'> }): PlayEndpoints {
  return { ...(ctx.config.googlePlay.tokenUrl ? { tokenUrl: ctx.config.googlePlay.tokenUrl } : {}), ...(ctx.config.googlePlay.apiUrl ? { apiUrl: ctx.config.googlePlay.apiUrl } : {}) };
}

/** A PlayError as the API's answer: 422 with its code and pt-BR message, 502 when Google did not answer. */
export function playApiError(e: PlayError): ApiError {
  return new ApiError(e.code === 'PLAY_UNAVAILABLE' ? 502 : 422, e.code, e.message);
}

export async function savePlayCredentials(ctx: CredentialWrites & { secrets: ServerSecrets }, actor: AuditActor, userId: string, keyText: string): Promise<PlayCredential> {
  let key: ServiceAccountKey;
  try {
    key = parseServiceAccountKey(keyText);
  } catch (e) {
    if (isPlayError(e)) throw playApiError(e);
    throw e;
  }
  const { PlayCredential } = ctx.models;
  const saved = await ctx.sequelize.transaction(async (transaction) => {
    const previous = await PlayCredential.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    await PlayCredential.upsert(
      {
        userId,
        // Only the fields the JWT-bearer flow needs are kept (serviceAccountJson), sealed.
        secret: encryptJson(JSON.parse(serviceAccountJson(key)), ctx.secrets.encryptionKey, playCredentialsAad(userId)),
        clientEmail: key.clientEmail,
        projectId: key.projectId?.slice(0, 128) ?? null,
        privateKeyId: key.privateKeyId?.slice(0, 128) ?? null,
        lastTestedAt: null,
        lastTestedPackage: null,
      },
      { transaction },
    );
    const stored = (await PlayCredential.findByPk(userId, { transaction }))!;
    await recordAudit(
      ctx,
      { action: 'play_key.saved', actor, target: auditTarget(userId, stored), accountId: userId, before: previous ? auditView(previous) : null, after: auditView(stored) },
      { transaction },
    );
    return stored;
  });
  ctx.logger.info({ userId, clientEmail: key.clientEmail }, 'play credentials saved');
  return saved;
}

export function findPlayCredentials(ctx: Credentials, userId: string): Promise<PlayCredential | null> {
  return ctx.models.PlayCredential.findByPk(userId);
}

export async function deletePlayCredentials(ctx: CredentialWrites, actor: AuditActor, userId: string): Promise<boolean> {
  const removed = await ctx.sequelize.transaction(async (transaction) => {
    const row = await ctx.models.PlayCredential.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!row) return false;
    await row.destroy({ transaction });
    await recordAudit(ctx, { action: 'play_key.removed', actor, target: auditTarget(userId, row), accountId: userId, before: auditView(row) }, { transaction });
    return true;
  });
  if (removed) ctx.logger.info({ userId }, 'play credentials deleted');
  return removed;
}

/** `versionCode: "play"` needs the account's Play key to read Play's versionCodes: a 400 field error otherwise. */
export async function requirePlayKeyForVersionCode(ctx: Credentials, userId: string, parsed: ParsedOptions): Promise<ParsedOptions> {
  if (!parsed.ok || parsed.options.versionCode !== VERSION_CODE_FROM_PLAY || (await findPlayCredentials(ctx, userId))) return parsed;
  return { ok: false, message: PLAY_MESSAGES.requiredForVersionCode, fields: { 'options.versionCode': PLAY_MESSAGES.requiredForVersionCode } };
}

/** The key for one publication or test; null when the user has none. */
export async function playKeyFor(ctx: Credentials & { secrets: ServerSecrets }, userId: string): Promise<ServiceAccountKey | null> {
  const row = await findPlayCredentials(ctx, userId);
  if (!row) return null;
  const opened = openJson(row.secret, keyRingOf(ctx.secrets), playCredentialsAad(userId)).value;
  return parseServiceAccountKey(JSON.stringify(opened));
}

/** 'Testar conexão': a token and an edit opened and deleted at once on `packageName`. */
export async function testPlayAccess(ctx: Credentials & { secrets: ServerSecrets; logger: Logger; config: Pick<Config, 'googlePlay'> }, userId: string, packageName: string): Promise<PlayCredential> {
  const key = await playKeyFor(ctx, userId);
  if (!key) throw ApiError.notFound(PLAY_MESSAGES.notFound, 'PLAY_CREDENTIALS_NOT_FOUND');
  try {
    await testEditAccess(key, packageName, playEndpoints(ctx));
  } catch (e) {
    if (!isPlayError(e)) throw e;
    ctx.logger.info({ userId, packageName, code: e.code, google: e.detail }, 'play connection test failed');
    throw playApiError(e);
  }
  await ctx.models.PlayCredential.update({ lastTestedAt: new Date(), lastTestedPackage: packageName }, { where: { userId } });
  return (await findPlayCredentials(ctx, userId))!;
}
