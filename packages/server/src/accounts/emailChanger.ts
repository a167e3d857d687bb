/**
 * Changing the account's e-mail (Conta › Perfil): asked by a session that recently proved the
 * password, confirmed by a single-use link sent to the NEW address (24 hours). The account keeps
 * its address until the link is followed; the old address is told when the change is asked and
 * when it is made, and both steps go into the audit trail.
 */
import { UniqueConstraintError } from 'sequelize';
import { EMAIL_MESSAGES } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { revokeEmailLinks, useEmailLink } from '../mail/links.js';
import { recordAudit } from '../audit/recorder.js';
import type { AuditActor } from '../audit/actor.js';
import { userAuditTarget } from './userPresenter.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize' | 'mail'>;

const linkInvalid = () => new ApiError(400, 'EMAIL_CHANGE_LINK_INVALID', EMAIL_MESSAGES.emailChangeLinkInvalid, { fields: { token: EMAIL_MESSAGES.emailChangeLinkInvalid } });
const taken = () => new ApiError(409, 'EMAIL_TAKEN', EMAIL_MESSAGES.emailChangeTaken, { fields: { newEmail: EMAIL_MESSAGES.emailChangeTaken } });

/**
 * Sends the link to `newEmail` and tells the current address. An address another account uses
 * gets no link and the same answer (the asker learns nothing of other accounts; its owner is not
 * mailed by a stranger's request). Without SMTP nothing could arrive: refused, said plainly.
 */
export async function requestEmailChange(ctx: Ctx, actor: AuditActor, user: User, newEmail: string): Promise<void> {
  if (newEmail === user.email) throw new ApiError(400, 'EMAIL_UNCHANGED', EMAIL_MESSAGES.emailChangeSame, { fields: { newEmail: EMAIL_MESSAGES.emailChangeSame } });
  if (ctx.mail.outbox.transport !== 'smtp') throw new ApiError(503, 'EMAIL_DELIVERY_UNAVAILABLE', EMAIL_MESSAGES.emailChangeNotDeliverable);
  await ctx.sequelize.transaction(async (transaction) => {
    const owner = await ctx.models.User.findOne({ where: { email: newEmail }, attributes: ['id'], transaction });
    await recordAudit(ctx, { action: 'account.email_change_requested', actor, target: userAuditTarget(user), details: { newEmail, sent: !owner } }, { transaction });
    if (owner) return;
    await ctx.mail.emailChangeRequested(user, newEmail, { transaction });
  });
}

/** Follows the link: the account takes the new address (confirmed by the link itself). */
export async function confirmEmailChange(ctx: Ctx, actorOf: (user: User) => AuditActor, token: string): Promise<User> {
  try {
    return await ctx.sequelize.transaction(async (transaction) => {
      const link = await useEmailLink(ctx.sequelize, token, 'email_change', transaction);
      if (!link) throw linkInvalid();
      const user = await ctx.models.User.findByPk(link.userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
      if (!user || !user.isActive) throw linkInvalid();
      if (await ctx.models.User.findOne({ where: { email: link.email }, attributes: ['id'], transaction })) throw taken();
      const oldEmail = user.email;
      user.email = link.email;
      user.emailVerifiedAt = new Date();
      await user.save({ transaction });
      // Links mailed to the old address (a reset, a confirmation) and other pending changes die.
      for (const purpose of ['password_reset', 'email_verification', 'email_change'] as const) await revokeEmailLinks(ctx.models, user.id, purpose, transaction);
      await recordAudit(ctx, { action: 'account.email_changed', actor: actorOf(user), target: userAuditTarget(user), before: { email: oldEmail }, after: { email: user.email } }, { transaction });
      await ctx.mail.emailChangeNotice(user, oldEmail, user.email, true, { transaction });
      return user;
    });
  } catch (err) {
    // Another account took the address between the check and the write.
    if (err instanceof UniqueConstraintError) throw taken();
    throw err;
  }
}
