import { Router } from 'express';
import type { AppContext } from '../context.js';
import { createHealthRouter, createReadyRouter } from './health/router.js';
import { createSetupRouter } from './setup/router.js';
import { createAuthRouter } from './auth/router.js';
import { createConversionRouter } from './conversion/router.js';
import { createDownloadRouter } from './download/router.js';
import { createAdminRouter } from './admin/router.js';
import { createPlansRouter } from './plans/router.js';
import { createAdminPlansRouter } from './adminPlans/router.js';
import { createPaymentsRouter, createPixHandlers } from './payments/router.js';
import { createAdminPaymentsRouter } from './adminPayments/router.js';
import { createDebugRouter } from './debug/router.js';
import { createAccountRouter } from './account/router.js';
import { createAuthRecoveryRouter } from './auth/recovery.js';
import { createAccountPreferencesRouter } from './account/preferences.js';
import { createAdminEmailsRouter } from './adminEmails/router.js';
import { createOpenApiRouter } from './openapi/router.js';
import { createAdminPublicationsRouter, createPlayCredentialsRouter, createPublicationsRouter } from './play/router.js';

/** Every API resource, mounted under /api. One folder per resource (router, schemas, tests). */
export function createApiRouter(ctx: AppContext): Router {
  const api = Router();
  api.use('/health', createHealthRouter(ctx));
  api.use('/ready', createReadyRouter(ctx));
  // GET /openapi.json and /docs: the API contract (openapi/document.ts) and its reference page.
  api.use(createOpenApiRouter(ctx));
  api.use('/setup', createSetupRouter(ctx));
  api.use('/auth', createAuthRouter(ctx));
  api.use('/auth', createAuthRecoveryRouter(ctx));
  api.use('/conversion', createConversionRouter(ctx));
  api.use('/account', createAccountRouter(ctx));
  api.use('/account', createAccountPreferencesRouter(ctx));
  api.use('/account', createPlayCredentialsRouter(ctx));
  api.use('/publications', createPublicationsRouter(ctx));
  api.use('/download', createDownloadRouter(ctx));
  api.use('/plans', createPlansRouter(ctx));
  api.use('/payments', createPaymentsRouter(ctx));
  // The client's fallback path for a failed /payments/create-pix call (spec §7).
  api.post('/create-pix/:planId', ...createPixHandlers(ctx));
  api.use('/debug', createDebugRouter(ctx));
  api.use('/admin/plans', createAdminPlansRouter(ctx));
  api.use('/admin/payments', createAdminPaymentsRouter(ctx));
  api.use('/admin/emails', createAdminEmailsRouter(ctx));
  api.use('/admin/publications', createAdminPublicationsRouter(ctx));
  // Admin calls (dashboard, users, admins, conversions, queue, system, config); /admin/plans is a separate sub-router.
  api.use('/admin', createAdminRouter(ctx));
  return api;
}
