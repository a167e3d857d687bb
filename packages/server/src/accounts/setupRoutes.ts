import { Router, type RequestHandler } from 'express';
import { ACCOUNT_MESSAGES, setupSchema, type SetupResponse, type SetupStatusResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { validate, inputOf } from '../http/validate.js';
import { createFirstAdmin, requiresSetup, setupDoneError } from './firstAdminCreator.js';
import { userAuditTarget, userAuditView } from './userPresenter.js';
import { openSession, requestOrigin } from './signIn.js';
import { requestActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

/**
 * GET /api/setup/status → { requiresSetup }
 * POST /api/setup/initialize { email, password, name } → 201 { success, token, user }; 403
 * SETUP_ALREADY_DONE once an admin exists, whatever the body.
 */
export function createSetupRouter(ctx: AppContext): Router {
  const router = Router();

  const setupOpen: RequestHandler = async (_req, _res, next) => {
    if (!(await requiresSetup(ctx))) throw setupDoneError();
    next();
  };

  router.get('/status', async (_req, res) => {
    const body: SetupStatusResponse = { requiresSetup: await requiresSetup(ctx) };
    res.json(body);
  });

  router.post('/initialize', setupOpen, validate(setupSchema), async (req, res) => {
    const input = inputOf(req, setupSchema);
    const admin = await createFirstAdmin(ctx, { email: input.email, password: input.password, name: input.name });
    admin.lastLogin = new Date();
    await ctx.sequelize.transaction(async (transaction) => {
      await admin.save({ transaction });
      await recordAudit(ctx, { action: 'setup.completed', actor: requestActor(req, admin), target: userAuditTarget(admin), after: userAuditView(admin) }, { transaction });
    });
    ctx.logger.info({ userId: admin.id }, 'first administrator created');
    const session = await openSession(ctx, admin, requestOrigin(req));
    if (!session) throw new Error('new session id already in use');
    const body: SetupResponse = { success: true, message: ACCOUNT_MESSAGES.setupSuccess, ...session };
    res.status(201).json(body);
  });

  return router;
}
