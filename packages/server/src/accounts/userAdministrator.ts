/**
 * What an admin does to accounts (docs/admin.md; docs/decisions.md
 * "Accounts"): create users and admins, edit only what changed, credits, subscription, type,
 * activate, promote, demote, password, delete. Each takes the acting admin and runs in one
 * transaction with the target row locked. Role changes lock every admin row first, so two
 * admins demoting each other at once cannot leave the product without an administrator.
 * Deleting is a soft delete (the User model is paranoid): purchases and payments keep their
 * owner; the account's sessions end, its API tokens, download links, upload keystore and Play
 * key are removed and its running conversions are cancelled; deactivating removes its download links
 * too. What takes rights away (deactivation, deletion, demotion, a new password) then has the
 * user's open sockets and event streams checked again, on every process (realtime/access.ts).
 */
import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import {
  ACCOUNT_MESSAGES,
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  type AdminCreateAdminRequest,
  type AdminCreateUserRequest,
  type AdminCreditsRequest,
  type AdminSubscriptionRequest,
  type AdminUpdateUserRequest,
  type UserType,
  isUuid,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import { cancelConversion, type CancelDeps } from '../conversions/canceller.js';
import type { Plan, User } from '../models/index.js';
import { hashPassword, verifyPassword } from './password.js';
import { ApiError } from '../http/errors.js';
import { addMonths } from '../plans/planApplier.js';
import { createUser, emailTakenError } from './userCreator.js';
import { userAuditTarget, userAuditView } from './userPresenter.js';
import type { SignedInActor } from '../audit/actor.js';
import { auditChanges, recordAudit, type AuditEntry } from '../audit/recorder.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize' | 'logger' | 'liveAccess'> & CancelDeps;

/** Records what the actor changed on the account (only the fields that differ), in the change's transaction. */
async function recordUserChange(
  ctx: Ctx,
  action: AuditEntry['action'],
  actor: SignedInActor,
  user: User,
  before: Record<string, unknown>,
  transaction: Transaction,
  details?: Record<string, unknown>,
): Promise<void> {
  await recordAudit(ctx, { action, actor, target: userAuditTarget(user), ...auditChanges(before, userAuditView(user)), details }, { transaction });
}


const userNotFound = () => ApiError.notFound(ADMIN_MESSAGES.userNotFound, 'USER_NOT_FOUND');
const noChanges = () => new ApiError(400, 'NO_CHANGES', ADMIN_MESSAGES.noChanges);

/** The account, locked for the rest of the transaction; 404 for a missing or deleted one. */
export async function lockUser(ctx: Ctx, id: unknown, transaction: Transaction): Promise<User> {
  if (typeof id !== 'string' || !isUuid(id)) throw userNotFound();
  const user = await ctx.models.User.findByPk(id, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
  if (!user) throw userNotFound();
  return user;
}

export async function findUser(ctx: Ctx, id: unknown): Promise<User> {
  if (typeof id !== 'string' || !isUuid(id)) throw userNotFound();
  const user = await ctx.models.User.findByPk(id);
  if (!user) throw userNotFound();
  return user;
}

async function subscriptionPlan(ctx: Ctx, planId: string, transaction: Transaction): Promise<Plan> {
  const plan = await ctx.models.Plan.findByPk(planId, { transaction });
  if (!plan) throw new ApiError(404, 'PLAN_NOT_FOUND', 'Plano não encontrado', { fields: { planId: 'Plano não encontrado' } });
  if (plan.type !== 'subscription') throw new ApiError(400, 'VALIDATION_ERROR', ADMIN_MESSAGES.planNotSubscription, { fields: { planId: ADMIN_MESSAGES.planNotSubscription } });
  return plan;
}

/** Gives the user the subscription plan until `expiresAt` (default: now + the plan's months). */
function grantSubscription(user: User, plan: Plan, expiresAt: Date | undefined, now: Date): void {
  user.userType = 'subscription';
  user.subscriptionPlanId = plan.id;
  user.currentPlanId = plan.id;
  user.currentPurchaseId = null;
  if (!user.subscriptionExpiresAt || user.subscriptionExpiresAt.getTime() <= now.getTime()) user.subscriptionStartsAt = now;
  user.subscriptionExpiresAt = expiresAt ?? addMonths(now, plan.durationMonths ?? 1);
  user.planActivatedAt = now;
}

async function saveUnique(user: User, transaction: Transaction): Promise<User> {
  try {
    return await user.save({ transaction });
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw emailTakenError();
    throw err;
  }
}

export async function createUserByAdmin(ctx: Ctx, actor: SignedInActor, input: AdminCreateUserRequest): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    const now = new Date();
    const user = await createUser(
      ctx,
      { email: input.email, password: input.password, name: input.name ?? null, userType: input.userType, credits: input.userType === 'credit' ? (input.credits ?? 0) : 0 },
      { transaction },
    );
    if (input.userType === 'credit') {
      user.planActivatedAt = now;
    } else if (input.planId) {
      grantSubscription(user, await subscriptionPlan(ctx, input.planId, transaction), undefined, now);
    }
    await user.save({ transaction });
    await recordAudit(ctx, { action: 'user.created', actor, target: userAuditTarget(user), after: userAuditView(user) }, { transaction });
    ctx.logger.info({ actor: actor.user.id, userId: user.id, userType: input.userType }, 'admin created user');
    return user;
  });
}

export async function createAdmin(ctx: Ctx, actor: SignedInActor, input: AdminCreateAdminRequest): Promise<User> {
  const user = await ctx.sequelize.transaction(async (transaction) => {
    const created = await createUser(ctx, { email: input.email, password: input.password, name: input.name ?? 'Administrador', role: 'admin' }, { transaction });
    await recordAudit(ctx, { action: 'user.created', actor, target: userAuditTarget(created), after: userAuditView(created) }, { transaction });
    return created;
  });
  ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin created admin');
  return user;
}

/** Applies only what differs from the account; nothing different is a 400 'Nenhuma alteração detectada'. */
export async function updateUserByAdmin(ctx: Ctx, actor: SignedInActor, id: string, input: AdminUpdateUserRequest): Promise<User> {
  let passwordChanged = false;
  const updated = await ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    const before = userAuditView(user);
    const now = new Date();
    let changed = false;
    if (input.email !== undefined && input.email !== user.email) {
      user.email = input.email;
      changed = true;
    }
    if (input.name !== undefined && input.name !== (user.name ?? '')) {
      user.name = input.name === '' ? null : input.name;
      changed = true;
    }
    if (input.password !== undefined && !(await verifyPassword(input.password, user.passwordHash))) {
      user.passwordHash = await hashPassword(input.password);
      changed = passwordChanged = true;
    }
    if (input.userType !== undefined && input.userType !== user.userType) {
      user.userType = input.userType;
      if (input.userType === 'credit' && !user.planActivatedAt) user.planActivatedAt = now;
      changed = true;
    }
    const credits = input.planData?.credits;
    if (credits !== undefined && credits !== user.credits) {
      user.credits = credits;
      changed = true;
    }
    const expiresAt = input.planData?.expiresAt;
    if (input.planId !== undefined && input.planId !== user.subscriptionPlanId) {
      grantSubscription(user, await subscriptionPlan(ctx, input.planId, transaction), expiresAt ?? keepFutureExpiry(user, now), now);
      changed = true;
    } else if (expiresAt !== undefined && expiresAt.getTime() !== user.subscriptionExpiresAt?.getTime()) {
      user.subscriptionExpiresAt = expiresAt;
      changed = true;
    }
    if (!changed) throw noChanges();
    await saveUnique(user, transaction);
    await recordUserChange(ctx, 'user.updated', actor, user, before, transaction, passwordChanged ? { passwordChanged: true } : undefined);
    ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin updated user');
    return user;
  });
  if (passwordChanged) await ctx.liveAccess.accessChanged(updated.id);
  return updated;
}

function keepFutureExpiry(user: User, now: Date): Date | undefined {
  return user.subscriptionExpiresAt && user.subscriptionExpiresAt.getTime() > now.getTime() ? user.subscriptionExpiresAt : undefined;
}

export async function setCredits(ctx: Ctx, actor: SignedInActor, id: string, input: AdminCreditsRequest): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    const before = userAuditView(user);
    const next = input.operation === 'add' ? user.credits + input.credits : input.operation === 'subtract' ? user.credits - input.credits : input.credits;
    if (next < 0) throw new ApiError(400, 'VALIDATION_ERROR', ADMIN_MESSAGES.creditsBelowZero, { fields: { credits: ADMIN_MESSAGES.creditsBelowZero } });
    // The balance keeps the request's own bound: repeated additions never overflow the column.
    if (next > ADMIN_LIMITS.creditsMax) throw new ApiError(400, 'VALIDATION_ERROR', ADMIN_MESSAGES.creditsTooMany, { fields: { credits: ADMIN_MESSAGES.creditsTooMany } });
    user.credits = next;
    if (!user.userType) user.userType = 'credit';
    if (user.userType === 'credit' && !user.planActivatedAt) user.planActivatedAt = new Date();
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.credits_changed', actor, user, before, transaction, { operation: input.operation, amount: input.credits });
    ctx.logger.info({ actor: actor.user.id, userId: user.id, credits: next }, 'admin set credits');
    return user;
  });
}

export async function setSubscription(ctx: Ctx, actor: SignedInActor, id: string, input: AdminSubscriptionRequest): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    const before = userAuditView(user);
    const now = new Date();
    const planId = input.planId ?? user.subscriptionPlanId;
    if (!planId) throw new ApiError(400, 'VALIDATION_ERROR', ADMIN_MESSAGES.subscriptionNeedsPlan, { fields: { planId: ADMIN_MESSAGES.subscriptionNeedsPlan } });
    const plan = await subscriptionPlan(ctx, planId, transaction);
    let expiresAt = input.expiresAt;
    if (expiresAt === undefined && input.extendMonths !== undefined) {
      const base = keepFutureExpiry(user, now) ?? now;
      expiresAt = addMonths(base, input.extendMonths);
    }
    if (expiresAt === undefined && input.planId === user.subscriptionPlanId) expiresAt = keepFutureExpiry(user, now);
    grantSubscription(user, plan, expiresAt, now);
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.subscription_changed', actor, user, before, transaction, { planName: plan.name, ...(input.extendMonths !== undefined ? { extendMonths: input.extendMonths } : {}) });
    ctx.logger.info({ actor: actor.user.id, userId: user.id, expiresAt: user.subscriptionExpiresAt }, 'admin set subscription');
    return user;
  });
}

export async function setUserType(ctx: Ctx, actor: SignedInActor, id: string, userType: UserType): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    if (user.userType === userType) throw noChanges();
    const before = userAuditView(user);
    user.userType = userType;
    if (userType === 'credit' && !user.planActivatedAt) user.planActivatedAt = new Date();
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.type_changed', actor, user, before, transaction);
    ctx.logger.info({ actor: actor.user.id, userId: user.id, userType }, 'admin set user type');
    return user;
  });
}

export async function toggleStatus(ctx: Ctx, actor: SignedInActor, id: string): Promise<User> {
  const toggled = await ctx.sequelize.transaction(async (transaction) => {
    // Two admins deactivating each other at once: the second finds its sender no longer an
    // active admin, so one active admin always remains.
    await lockAdmins(ctx, actor, transaction);
    const user = await lockUser(ctx, id, transaction);
    if (user.id === actor.user.id && user.isActive) throw ApiError.forbidden(ADMIN_MESSAGES.cannotDeactivateSelf, 'CANNOT_DEACTIVATE_SELF');
    // Deactivation raises tokenVersion (model hook): every session of the account ends, and the
    // download links it made go (reactivating does not revive them).
    const before = userAuditView(user);
    user.isActive = !user.isActive;
    await user.save({ transaction });
    if (!user.isActive) await ctx.models.DownloadToken.destroy({ where: { userId: user.id }, transaction });
    await recordUserChange(ctx, 'user.status_changed', actor, user, before, transaction);
    ctx.logger.info({ actor: actor.user.id, userId: user.id, isActive: user.isActive }, 'admin toggled user status');
    return user;
  });
  if (!toggled.isActive) await ctx.liveAccess.accessChanged(toggled.id);
  return toggled;
}

/**
 * Locks every admin row (in id order), so concurrent role and status changes are serialised,
 * and checks that the actor is still an active admin now that no one else can change that (a
 * request authorised just before another admin demoted or deactivated its sender). Since no
 * admin can demote, deactivate or delete themselves, the actor is then an active admin who
 * remains: the last active admin can never be removed, even by two admins at once.
 */
async function lockAdmins(ctx: Ctx, actor: SignedInActor, transaction: Transaction): Promise<void> {
  const admins = await ctx.models.User.findAll({ where: { role: 'admin' }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
  if (!admins.some((a) => a.id === actor.user.id && a.isActive)) throw ApiError.forbidden(ACCOUNT_MESSAGES.adminRequired, 'ADMIN_REQUIRED');
}

export async function promote(ctx: Ctx, actor: SignedInActor, id: string): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    await lockAdmins(ctx, actor, transaction);
    const user = await lockUser(ctx, id, transaction);
    if (user.role === 'admin') throw ApiError.conflict(ADMIN_MESSAGES.alreadyAdmin, 'ALREADY_ADMIN');
    const before = userAuditView(user);
    user.role = 'admin';
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.role_changed', actor, user, before, transaction);
    ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin promoted user');
    return user;
  });
}

export async function demote(ctx: Ctx, actor: SignedInActor, id: string): Promise<User> {
  const demoted = await ctx.sequelize.transaction(async (transaction) => {
    await lockAdmins(ctx, actor, transaction);
    const user = await lockUser(ctx, id, transaction);
    if (user.id === actor.user.id) throw ApiError.forbidden(ADMIN_MESSAGES.cannotDemoteSelf, 'CANNOT_DEMOTE_SELF');
    if (user.role !== 'admin') throw ApiError.conflict(ADMIN_MESSAGES.notAdmin, 'NOT_ADMIN');
    const before = userAuditView(user);
    user.role = 'user';
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.role_changed', actor, user, before, transaction);
    ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin demoted admin');
    return user;
  });
  await ctx.liveAccess.accessChanged(demoted.id);
  return demoted;
}

export async function changePasswordByAdmin(ctx: Ctx, actor: SignedInActor, id: string, newPassword: string): Promise<User> {
  const changed = await ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    // The model hook raises tokenVersion: the account's older sessions end.
    user.passwordHash = await hashPassword(newPassword);
    await user.save({ transaction });
    await recordAudit(ctx, { action: 'user.password_changed', actor, target: userAuditTarget(user), details: { sessionsEnded: true } }, { transaction });
    ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin changed user password');
    return user;
  });
  await ctx.liveAccess.accessChanged(changed.id);
  return changed;
}

/** An address the admin checked with its owner (no e-mail could reach it, or it did not arrive). */
export async function markEmailVerifiedByAdmin(ctx: Ctx, actor: SignedInActor, id: string): Promise<User> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockUser(ctx, id, transaction);
    if (user.emailVerifiedAt) throw ApiError.conflict(ADMIN_MESSAGES.emailAlreadyVerified, 'EMAIL_ALREADY_VERIFIED');
    const before = userAuditView(user);
    user.emailVerifiedAt = new Date();
    await user.save({ transaction });
    await recordUserChange(ctx, 'user.email_verified', actor, user, before, transaction);
    ctx.logger.info({ actor: actor.user.id, userId: user.id }, 'admin marked e-mail verified');
    return user;
  });
}

export async function deleteUserByAdmin(ctx: Ctx, actor: SignedInActor, id: string): Promise<void> {
  const running = await ctx.sequelize.transaction(async (transaction) => {
    await lockAdmins(ctx, actor, transaction);
    const user = await lockUser(ctx, id, transaction);
    if (user.id === actor.user.id) throw ApiError.forbidden(ADMIN_MESSAGES.cannotDeleteSelf, 'CANNOT_DELETE_SELF');
    // The soft delete keeps the row, so ON DELETE CASCADE never fires: the account's API tokens,
    // download links, upload keystore and Google Play key (both private keys) go now, explicitly.
    const before = userAuditView(user);
    const apiTokensRemoved = await ctx.models.ApiToken.destroy({ where: { userId: user.id }, transaction });
    const downloadLinksRemoved = await ctx.models.DownloadToken.destroy({ where: { userId: user.id }, transaction });
    const uploadKeyRemoved = (await ctx.models.UserKeystore.destroy({ where: { userId: user.id }, transaction })) > 0;
    const playKeyRemoved = (await ctx.models.PlayCredential.destroy({ where: { userId: user.id }, transaction })) > 0;
    // Deactivating raises tokenVersion (model hook): sessions end even before the row is hidden.
    user.isActive = false;
    await user.save({ transaction });
    await user.destroy({ transaction });
    const active = await ctx.models.Conversion.findAll({ where: { userId: user.id, status: { [Op.in]: ['pending', 'queued', 'processing'] } }, attributes: ['id'], transaction });
    await recordAudit(
      ctx,
      {
        action: 'user.deleted',
        actor,
        target: userAuditTarget(user),
        before,
        details: { apiTokensRemoved, downloadLinksRemoved, uploadKeyRemoved, playKeyRemoved, runningConversionsCancelled: active.length },
      },
      { transaction },
    );
    return active.map((c) => c.id);
  });
  await ctx.liveAccess.accessChanged(id);
  for (const conversionId of running) {
    await cancelConversion(ctx, conversionId).catch((err: unknown) => ctx.logger.warn({ err, conversionId }, 'conversion of deleted user not cancelled'));
  }
  ctx.logger.info({ actor: actor.user.id, userId: id }, 'admin deleted user');
}
