/**
 * "Meus dados" exports: everything the service holds about an account, as a zip of JSON files the
 * owner downloads from Conta › Meus dados. Asked for by the owner (at most one in preparation and
 * DATA_EXPORT_LIMITS.perDay a day), built by the `privacy:export` job, announced by e-mail (the
 * link opens the page, where a signed-in session downloads it: the e-mail alone opens nothing),
 * kept DATA_EXPORT_LIMITS.keepDays days, then deleted by `privacy:export-retention`.
 *
 * What goes in is what the account's own screens show, through the same presenters — never a
 * secret: no password or token hash, no two-factor secret or recovery code, no key material, no
 * single-use link of an e-mail. docs/privacy.md lists the files.
 */
import { rm } from 'node:fs/promises';
import { Op } from 'sequelize';
import { ZipWriter } from '@aabify/converter';
import {
  ACCOUNT_VISIBLE_ACTIONS,
  DATA_EXPORT_LIMITS,
  EMAIL_KIND_LABELS,
  PRIVACY_MESSAGES,
  type DataExportJson,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { DataExport, User } from '../models/index.js';
import type { SignedInActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';
import { presentAccountActivity } from '../audit/presenter.js';
import { userAuditTarget, presentUser } from '../accounts/userPresenter.js';
import { presentSession } from '../accounts/sessionPresenter.js';
import { presentApiToken } from '../accounts/apiTokenPresenter.js';
import { presentConversion } from '../conversions/presenter.js';
import { presentLog } from '../conversions/logs.js';
import { readConversionSettings } from '../conversions/settings.js';
import { purchaseViewIncludes } from '../payments/access.js';
import { presentPurchase } from '../payments/presenter.js';
import { presentKeystore } from '../keystores/service.js';
import { presentPlayCredentials } from '../play/credentials.js';
import { presentPublication } from '../play/publications.js';
import { lockForTransaction } from '../db/locks.js';
import { ApiError } from '../http/errors.js';
import { enqueueFor, itemsWithoutJob } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
/** Conversions read per query while the zip is written (their logs one conversion at a time). */
const CONVERSION_BATCH = 200;

/** 'aabify-meus-dados-2026-11-28.zip': the day it was asked for, in Brasília. */
export function dataExportFileName(row: Pick<DataExport, 'requestedAt'>): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(row.requestedAt);
  return `aabify-meus-dados-${day}.zip`;
}

export function presentDataExport(row: DataExport): DataExportJson {
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    readyAt: iso(row.readyAt),
    expiresAt: row.status === 'ready' ? iso(row.expiresAt) : null,
    size: row.status === 'ready' && row.size !== null ? Number(row.size) : null,
    filename: dataExportFileName(row),
  };
}

type RequestCtx = Pick<AppContext, 'sequelize' | 'models' | 'queue' | 'logger'>;

/**
 * A new export of `user`'s data, queued. 409 EXPORT_IN_PROGRESS while another is in preparation;
 * 429 EXPORT_LIMIT past DATA_EXPORT_LIMITS.perDay in 24 hours (retryAfter = until the oldest of
 * them is a day old). The checks and the insert run under a per-account lock.
 */
export async function requestDataExport(ctx: RequestCtx, actor: SignedInActor, user: User, now: Date = new Date()): Promise<DataExport> {
  const row = await ctx.sequelize.transaction(async (transaction) => {
    await lockForTransaction(ctx.sequelize, `data-exports:${user.id}`, transaction);
    if (await ctx.models.DataExport.count({ where: { userId: user.id, status: 'pending' }, transaction })) {
      throw new ApiError(409, 'EXPORT_IN_PROGRESS', PRIVACY_MESSAGES.exportInProgress);
    }
    const recent = await ctx.models.DataExport.findAll({
      where: { userId: user.id, requestedAt: { [Op.gt]: new Date(now.getTime() - DAY_MS) } },
      order: [['requestedAt', 'ASC']],
      attributes: ['requestedAt'],
      transaction,
    });
    if (recent.length >= DATA_EXPORT_LIMITS.perDay) {
      const wait = Math.ceil((recent[0]!.requestedAt.getTime() + DAY_MS - now.getTime()) / 1000);
      throw ApiError.tooManyRequests(Math.max(1, wait), PRIVACY_MESSAGES.exportLimit, 'EXPORT_LIMIT');
    }
    const created = await ctx.models.DataExport.create({ userId: user.id, requestedAt: now, storageKey: null, size: null, error: null, readyAt: null, expiresAt: null }, { transaction });
    await recordAudit(ctx, { action: 'account.data_export_requested', actor, target: userAuditTarget(user), accountId: user.id, details: { exportId: created.id } }, { transaction });
    return created;
  });
  // A crash before this line leaves a pending row without a job: the retention job queues it.
  await enqueueFor(ctx.queue, JOBS.privacyExport, 'exportId', row.id);
  return row;
}

type BuildCtx = Pick<AppContext, 'models' | 'storage' | 'settings' | 'mail' | 'logger'>;

/** The `privacy:export` job: writes the zip, stores it, marks the row ready and tells the owner. */
export async function buildDataExport(ctx: BuildCtx, exportId: string, now: () => Date = () => new Date()): Promise<void> {
  const row = await ctx.models.DataExport.findByPk(exportId);
  if (!row || row.status !== 'pending') return;
  const user = await ctx.models.User.findByPk(row.userId);
  if (!user) {
    await row.update({ status: 'failed', error: 'account gone' });
    return;
  }
  const scratch = await ctx.storage.scratchPath(`export-${row.id}.zip`);
  const key = dataExportKey(row);
  try {
    const zip = await ZipWriter.create(scratch, { hash: false });
    try {
      await writeAccountData(ctx, user, zip, now());
      const { size } = await zip.finish();
      await ctx.storage.putFile(key, scratch);
      const readyAt = now();
      const expiresAt = new Date(readyAt.getTime() + DATA_EXPORT_LIMITS.keepDays * DAY_MS);
      const [updated] = await ctx.models.DataExport.update(
        { status: 'ready', storageKey: key, size: String(size), readyAt, expiresAt },
        { where: { id: row.id, status: 'pending' } },
      );
      // Deleted meanwhile (the account went): the file must not outlive it.
      if (updated === 0) await ctx.storage.delete(key);
      else await ctx.mail.dataExportReady(user, { id: row.id, requestedAt: row.requestedAt, expiresAt });
    } catch (err) {
      await zip.destroy();
      throw err;
    }
  } catch (err) {
    ctx.logger.error({ err, exportId: row.id, userId: user.id }, 'data export failed');
    await ctx.storage.delete(key).catch(() => undefined);
    await row.update({ status: 'failed', error: err instanceof Error ? err.message.slice(0, 1000) : 'unknown error' });
  } finally {
    await rm(scratch, { force: true });
  }
}

const dataExportKey = (row: Pick<DataExport, 'id' | 'userId'>) => `exports/${row.userId}/${row.id}.zip`;

/** What the README of the zip says, file by file. */
const README = `Dados da sua conta no aabify
=============================

Este arquivo tem tudo o que guardamos sobre a sua conta, em JSON (UTF-8):

- conta.json: seu perfil, plano, créditos, preferências e as versões dos Termos de Uso e da
  Política de Privacidade que você aceitou (com data e endereço de cada aceite).
- compras.json: suas compras, pagamentos e mudanças de situação de cada uma.
- conversoes.json: suas conversões (arquivo, tamanho, situação, datas, resultado).
- logs-de-conversao/<id>.json: o registro de cada conversão.
- publicacoes.json: o que você publicou no Google Play por aqui.
- emails.json: os e-mails que enviamos para você (assunto, tipo, situação e datas; os links de
  uso único não são guardados).
- sessoes.json: as sessões de login da conta (dispositivo, endereço, datas).
- tokens-de-api.json: seus tokens de API (nome, início, escopos e datas; nunca o token).
- chaves.json: os dados públicos da sua chave de upload e da chave do Google Play (nunca a
  chave privada nem senhas).
- atividade.json: o registro de segurança da conta (logins, mudanças de senha, tokens, chaves).

Os arquivos convertidos (APK e AAB) não vão aqui: baixe-os no Histórico enquanto estiverem
guardados. A Política de Privacidade (/privacidade) diz por que e por quanto tempo guardamos
cada dado.
`;

function json(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}

async function writeAccountData(ctx: BuildCtx, user: User, zip: ZipWriter, now: Date): Promise<void> {
  const { models } = ctx;
  const where = { userId: user.id };
  await zip.addBuffer('LEIA-ME.txt', Buffer.from(README, 'utf8'));

  const acceptances = await models.LegalAcceptance.findAll({ where, order: [['acceptedAt', 'ASC']] });
  await zip.addBuffer(
    'conta.json',
    json({
      exportedAt: now.toISOString(),
      profile: presentUser(user, now),
      legalAcceptances: acceptances.map((a) => ({ termsVersion: a.termsVersion, privacyVersion: a.privacyVersion, acceptedAt: a.acceptedAt.toISOString(), address: a.address, userAgent: a.userAgent })),
    }),
  );

  const purchases = await models.Purchase.findAll({ where, include: purchaseViewIncludes(ctx), order: [['createdAt', 'ASC'], ['id', 'ASC']] });
  const transitions = await models.PurchaseTransition.findAll({ where: { purchaseId: { [Op.in]: purchases.map((p) => p.id) } }, order: [['at', 'ASC'], ['id', 'ASC']] });
  await zip.addBuffer('compras.json', json(purchases.map((p) => presentPurchase(p, { transitions: transitions.filter((t) => t.purchaseId === p.id) }))));

  const { retentionDays } = await readConversionSettings(ctx.settings);
  const conversions: unknown[] = [];
  for (let offset = 0; ; offset += CONVERSION_BATCH) {
    const batch = await models.Conversion.findAll({ where, order: [['createdAt', 'ASC'], ['id', 'ASC']], limit: CONVERSION_BATCH, offset });
    for (const c of batch) {
      conversions.push(presentConversion(c, { retentionDays }));
      const logs = await models.ConversionLog.findAll({ where: { conversionId: c.id }, order: [['id', 'ASC']] });
      await zip.addBuffer(`logs-de-conversao/${c.id}.json`, json(logs.map(presentLog)));
    }
    if (batch.length < CONVERSION_BATCH) break;
  }
  await zip.addBuffer('conversoes.json', json(conversions));

  const publications = await models.Publication.findAll({ where, order: [['createdAt', 'ASC']] });
  await zip.addBuffer('publicacoes.json', json(publications.map(presentPublication)));

  const emails = await models.EmailMessage.findAll({ where, order: [['createdAt', 'ASC']] });
  await zip.addBuffer(
    'emails.json',
    json(emails.map((e) => ({ kind: e.kind, label: EMAIL_KIND_LABELS[e.kind], to: e.to, subject: e.subject, status: e.status, createdAt: e.createdAt.toISOString(), sentAt: iso(e.sentAt) }))),
  );

  const sessions = await models.Session.findAll({ where, order: [['createdAt', 'ASC']] });
  await zip.addBuffer('sessoes.json', json(sessions.map((s) => ({ ...presentSession(s, undefined), endedAt: iso(s.endedAt) }))));

  const tokens = await models.ApiToken.findAll({ where, order: [['createdAt', 'ASC']] });
  await zip.addBuffer('tokens-de-api.json', json(tokens.map(presentApiToken)));

  const keystore = await models.UserKeystore.findOne({ where });
  const play = await models.PlayCredential.findOne({ where });
  await zip.addBuffer('chaves.json', json({ uploadKey: keystore ? presentKeystore(keystore) : null, googlePlay: play ? presentPlayCredentials(play) : null }));

  const activity = await models.AuditEvent.findAll({ where: { accountId: user.id, action: { [Op.in]: [...ACCOUNT_VISIBLE_ACTIONS] } }, order: [['id', 'ASC']] });
  await zip.addBuffer('atividade.json', json(activity.map((e) => presentAccountActivity(e, user.id))));
}

/** The owner's ready export, or the coded error a download of it answers. */
export function downloadableExport(row: DataExport): { key: string; filename: string } {
  if (row.status === 'expired' || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) throw new ApiError(410, 'EXPORT_EXPIRED', PRIVACY_MESSAGES.exportExpired);
  if (row.status === 'failed') throw new ApiError(409, 'EXPORT_FAILED', PRIVACY_MESSAGES.exportFailed);
  if (row.status !== 'ready' || !row.storageKey) throw new ApiError(409, 'EXPORT_NOT_READY', PRIVACY_MESSAGES.exportNotReady);
  return { key: row.storageKey, filename: dataExportFileName(row) };
}

/**
 * `privacy:export-retention`: deletes the files of exports past their time (the rows stay, as
 * expired), and queues pending exports that have no job (a crash between the commit and the enqueue).
 */
export async function expireDataExports(ctx: Pick<AppContext, 'models' | 'storage' | 'sequelize' | 'queue'>, now: Date = new Date()): Promise<{ expired: number; requeued: number }> {
  const due = await ctx.models.DataExport.findAll({ where: { status: 'ready', expiresAt: { [Op.lte]: now } } });
  for (const row of due) {
    if (row.storageKey) await ctx.storage.delete(row.storageKey);
    await row.update({ status: 'expired', storageKey: null });
  }
  const orphans = await itemsWithoutJob(ctx.sequelize, { table: 'data_exports', statuses: ['pending'], name: JOBS.privacyExport, key: 'exportId' });
  for (const id of orphans) await enqueueFor(ctx.queue, JOBS.privacyExport, 'exportId', id);
  return { expired: due.length, requeued: orphans.length };
}

/** Every export of an account, files and rows (the account is being deleted). */
export async function deleteDataExports(ctx: Pick<AppContext, 'models' | 'storage'>, userId: string): Promise<void> {
  const rows = await ctx.models.DataExport.findAll({ where: { userId } });
  for (const row of rows) if (row.storageKey) await ctx.storage.delete(row.storageKey);
  await ctx.models.DataExport.destroy({ where: { userId } });
}
