/**
 * A customer deleting their own account ("Excluir minha conta", Conta › Meus dados): everything
 * of the account goes at once — conversions with their files and logs, upload keystore, Google
 * Play key, API tokens, download links, sessions, exports of its data — except what the law makes us keep: the
 * purchases, on the soft-deleted user row (email kept as the buyer's identification, everything
 * else of the profile cleared; each purchase keeps its own copy of the billing details). docs/privacy.md lists what stays and for how long.
 */
import { Op } from 'sequelize';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import type { SignedInActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';
import { userAuditTarget } from '../accounts/userPresenter.js';
import { cancelConversion } from '../conversions/canceller.js';
import { hashPassword } from '../accounts/password.js';
import { randomBytes } from 'node:crypto';
import { deleteDataExports } from './dataExport.js';

type Ctx = Parameters<typeof cancelConversion>[0] & Pick<AppContext, 'sequelize' | 'models' | 'liveAccess' | 'conversionFiles' | 'storage' | 'logger'>;

export async function deleteOwnAccount(ctx: Ctx, actor: SignedInActor, user: User): Promise<void> {
  // A password nobody knows: the row stays for the purchases, and no one can sign in to it.
  const unusableHash = await hashPassword(randomBytes(32).toString('base64url'));
  const { running, conversionIds } = await ctx.sequelize.transaction(async (transaction) => {
    const locked = await ctx.models.User.findByPk(user.id, { lock: transaction.LOCK.NO_KEY_UPDATE, transaction });
    if (!locked) return { running: [], conversionIds: [] };
    const where = { userId: user.id };
    const removed = {
      apiTokens: await ctx.models.ApiToken.destroy({ where, transaction }),
      downloadLinks: await ctx.models.DownloadToken.destroy({ where, transaction }),
      uploadKey: await ctx.models.UserKeystore.destroy({ where, transaction }),
      playKey: await ctx.models.PlayCredential.destroy({ where, transaction }),
      sessions: await ctx.models.Session.destroy({ where, transaction }),
    };
    const conversions = await ctx.models.Conversion.findAll({ where, attributes: ['id', 'status'], transaction });
    locked.set({ isActive: false, name: null, passwordHash: unusableHash, totpSecret: null, totpEnabledAt: null, recoveryCodes: [], lastLogin: null, billingDetails: null });
    await locked.save({ transaction });
    await locked.destroy({ transaction });
    await recordAudit(ctx, { action: 'account.deleted', actor, target: userAuditTarget(locked), accountId: locked.id, details: { ...removed, conversions: conversions.length } }, { transaction });
    return {
      running: conversions.filter((c) => ['pending', 'queued', 'processing'].includes(c.status)).map((c) => c.id),
      conversionIds: conversions.map((c) => c.id),
    };
  });
  await ctx.liveAccess.accessChanged(user.id);
  for (const id of running) await cancelConversion(ctx, id).catch((err: unknown) => ctx.logger.warn({ err, conversionId: id }, 'conversion of a deleted account not cancelled'));
  // Files, then rows (their logs go with them: ON DELETE CASCADE).
  const conversions = await ctx.models.Conversion.findAll({ where: { id: { [Op.in]: conversionIds } } });
  for (const c of conversions) await ctx.conversionFiles.deleteAll(c);
  await ctx.models.Conversion.destroy({ where: { id: { [Op.in]: conversionIds } } });
  await deleteDataExports(ctx, user.id);
  ctx.logger.info({ userId: user.id, conversions: conversionIds.length }, 'account deleted by its owner');
}
