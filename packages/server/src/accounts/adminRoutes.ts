import { Router, type Request } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import {
  ADMIN_MESSAGES,
  USER_ROLES,
  adminChangePasswordSchema,
  adminCreateAdminSchema,
  adminCreateUserSchema,
  adminCreditsSchema,
  adminPageQuerySchema,
  adminSubscriptionSchema,
  adminUpdateUserSchema,
  adminUserTypeSchema,
  adminUsersQuerySchema,
  type AdminUserListResponse,
  type AdminUserResponse,
  type MessageResponse,
  type UserRole,
  type AdminUserDetail,
  pagination,
  presentBillingDetails,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { signedInActor } from '../audit/requestActor.js';
import type { Limiter } from '../http/rateLimiter.js';
import { inputOf, parseInput, validate } from '../http/validate.js';
import { presentUser } from './userPresenter.js';
import {
  changePasswordByAdmin,
  createAdmin,
  createUserByAdmin,
  deleteUserByAdmin,
  demote,
  findUser,
  markEmailVerifiedByAdmin,
  promote,
  setCredits,
  setSubscription,
  setUserType,
  toggleStatus,
  updateUserByAdmin,
} from './userAdministrator.js';
import { adminGuard, authUser } from '../http/guards.js';
import { likePattern } from '../http/listing.js';

interface ListQuery {
  page: number;
  limit: number;
  search?: string;
  role?: UserRole | 'all';
  userType?: 'credit' | 'subscription' | 'none' | 'all';
}

async function listUsers(ctx: AppContext, q: ListQuery): Promise<AdminUserListResponse> {
  const where: Record<string | symbol, unknown> = {};
  if (q.role && q.role !== 'all') where.role = q.role;
  if (q.userType === 'none') where.userType = null;
  else if (q.userType && q.userType !== 'all') where.userType = q.userType;
  if (q.search) {
    const pattern = likePattern(q.search);
    where[Op.or] = [{ email: { [Op.iLike]: pattern } }, { name: { [Op.iLike]: pattern } }];
  }
  const { rows, count } = await ctx.models.User.findAndCountAll({
    where: where as WhereOptions<User>,
    order: [['createdAt', 'DESC'], ['id', 'ASC']],
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  const now = new Date();
  const p = pagination(count, q.page, q.limit);
  return { users: rows.map((u) => presentUser(u, now)), pagination: p, total: count, page: q.page, limit: q.limit, totalPages: p.pages };
}

const answer = (message: string, user: User): AdminUserResponse => ({ message, user: presentUser(user) });
const idOf = (req: Request): string => String(req.params.id);

/**
 * /api/admin/users:
 *   GET / (page, limit, search, role, userType) → { users, pagination, total, page, limit, totalPages }
 *   POST /create-user {email, password, userType, credits | planId} → 201 { message, user }
 *   POST /create-admin {email, password} → 201 { message, user }
 *   GET /by-role/{role} (page, limit); GET /{id} (the user with their billing details)
 *   PATCH /{id}/update (only changed fields), /{id}/credits, /{id}/subscription, /{id}/type,
 *         /{id}/toggle-status, /{id}/promote, /{id}/demote, /{id}/change-password → { message, user }
 *   DELETE /{id} → { message } (soft delete: purchases and payments keep their owner)
 */
export function createAdminUsersRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));

  router.get('/', validate(adminUsersQuerySchema, 'query'), async (req, res) => {
    res.json(await listUsers(ctx, inputOf(req, adminUsersQuerySchema)));
  });

  router.post('/create-user', validate(adminCreateUserSchema), async (req, res) => {
    const user = await createUserByAdmin(ctx, signedInActor(req), inputOf(req, adminCreateUserSchema));
    res.status(201).json(answer(ADMIN_MESSAGES.userCreated, user));
  });

  router.post('/create-admin', validate(adminCreateAdminSchema), async (req, res) => {
    const user = await createAdmin(ctx, signedInActor(req), inputOf(req, adminCreateAdminSchema));
    res.status(201).json(answer(ADMIN_MESSAGES.adminCreated, user));
  });

  router.get('/by-role/:role', validate(adminPageQuerySchema, 'query'), async (req, res) => {
    const role = String(req.params.role);
    if (!(USER_ROLES as readonly string[]).includes(role)) throw new ApiError(400, 'VALIDATION_ERROR', ADMIN_MESSAGES.roleInvalid, { fields: { role: ADMIN_MESSAGES.roleInvalid } });
    const q = inputOf(req, adminPageQuerySchema);
    res.json(await listUsers(ctx, { ...q, role: role as UserRole }));
  });

  router.get('/:id', async (req, res) => {
    const user = await findUser(ctx, idOf(req));
    const body: AdminUserDetail = { ...presentUser(user), billingDetails: user.billingDetails ? presentBillingDetails(user.billingDetails) : null };
    res.json(body);
  });

  router.patch('/:id/update', validate(adminUpdateUserSchema), async (req, res) => {
    const user = await updateUserByAdmin(ctx, signedInActor(req), idOf(req), inputOf(req, adminUpdateUserSchema));
    res.json(answer(ADMIN_MESSAGES.userUpdated, user));
  });

  router.patch('/:id/credits', validate(adminCreditsSchema), async (req, res) => {
    const user = await setCredits(ctx, signedInActor(req), idOf(req), inputOf(req, adminCreditsSchema));
    res.json(answer(ADMIN_MESSAGES.creditsUpdated, user));
  });

  router.patch('/:id/subscription', validate(adminSubscriptionSchema), async (req, res) => {
    const user = await setSubscription(ctx, signedInActor(req), idOf(req), inputOf(req, adminSubscriptionSchema));
    res.json(answer(ADMIN_MESSAGES.subscriptionUpdated, user));
  });

  router.patch('/:id/type', validate(adminUserTypeSchema), async (req, res) => {
    const user = await setUserType(ctx, signedInActor(req), idOf(req), inputOf(req, adminUserTypeSchema).userType);
    res.json(answer(ADMIN_MESSAGES.typeUpdated, user));
  });

  router.patch('/:id/toggle-status', async (req, res) => {
    const user = await toggleStatus(ctx, signedInActor(req), idOf(req));
    res.json(answer(user.isActive ? ADMIN_MESSAGES.userActivated : ADMIN_MESSAGES.userDeactivated, user));
  });

  router.patch('/:id/promote', async (req, res) => {
    res.json(answer(ADMIN_MESSAGES.promoted, await promote(ctx, signedInActor(req), idOf(req))));
  });

  router.patch('/:id/demote', async (req, res) => {
    res.json(answer(ADMIN_MESSAGES.demoted, await demote(ctx, signedInActor(req), idOf(req))));
  });

  router.patch('/:id/verify-email', async (req, res) => {
    res.json(answer(ADMIN_MESSAGES.emailMarkedVerified, await markEmailVerifiedByAdmin(ctx, signedInActor(req), idOf(req))));
  });

  /** A new confirmation link to the user; refused (409) where no e-mail can be delivered, rather than said sent. */
  router.post('/:id/resend-verification', async (req, res) => {
    const user = await findUser(ctx, idOf(req));
    if (user.emailVerifiedAt) throw ApiError.conflict(ADMIN_MESSAGES.emailAlreadyVerified, 'EMAIL_ALREADY_VERIFIED');
    if (ctx.mail.outbox.transport !== 'smtp') throw new ApiError(409, 'EMAIL_DELIVERY_UNAVAILABLE', ADMIN_MESSAGES.verificationNotDeliverable);
    await ctx.mail.verification(user);
    ctx.logger.info({ actor: authUser(req).id, userId: user.id }, 'admin resent the confirmation e-mail');
    const body: MessageResponse = { message: ADMIN_MESSAGES.verificationResent };
    res.json(body);
  });

  router.patch('/:id/change-password', validate(adminChangePasswordSchema), async (req, res) => {
    const { newPassword } = inputOf(req, adminChangePasswordSchema);
    res.json(answer(ADMIN_MESSAGES.passwordChanged, await changePasswordByAdmin(ctx, signedInActor(req), idOf(req), newPassword)));
  });

  router.delete('/:id', async (req, res) => {
    await deleteUserByAdmin(ctx, signedInActor(req), idOf(req));
    res.json({ message: ADMIN_MESSAGES.userDeleted });
  });

  return router;
}

/** GET /api/admin/admins (page, limit, search) → { admins, users, pagination, … } */
export function createAdminsRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));
  router.get('/', async (req, res) => {
    const q = await parseInput(adminPageQuerySchema, req.query);
    const list = await listUsers(ctx, { ...q, role: 'admin' });
    res.json({ ...list, admins: list.users });
  });
  return router;
}
