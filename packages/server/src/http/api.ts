import { Router } from 'express';
import type { AppContext } from '../context.js';
import { createHealthRouter, createReadyRouter } from '../ops/healthRoutes.js';
import { createSetupRouter } from '../accounts/setupRoutes.js';
import { createAuthRouter } from '../accounts/authRoutes.js';
import { createConversionRouter } from '../conversions/routes.js';
import { createDownloadRouter } from '../conversions/downloadRoutes.js';
import { createAdminRouter } from '../admin/routes.js';
import { createPlansRouter } from '../plans/routes.js';
import { createAdminPlansRouter } from '../plans/adminRoutes.js';
import { createPaymentsRouter, createPixHandlers } from '../payments/routes.js';
import { createAdminPaymentsRouter } from '../payments/adminRoutes.js';
import { createDebugRouter } from '../payments/debugRoutes.js';
import { createAccountRouter } from '../keystores/routes.js';
import { createAuthRecoveryRouter } from '../accounts/recoveryRoutes.js';
import { createAccountPreferencesRouter } from '../accounts/preferencesRoutes.js';
import { createProfileRouter } from '../accounts/profileRoutes.js';
import { createAccountActivityRouter } from '../audit/routes.js';
import { createAdminEmailsRouter } from '../mail/adminRoutes.js';
import { createOpenApiRouter } from '../openapi/routes.js';
import { createAdminPublicationsRouter, createPlayCredentialsRouter, createPublicationsRouter } from '../play/routes.js';
import { createLegalRouter } from '../legal/routes.js';
import { createSupportRouter } from '../help/routes.js';
import { createPrivacyRouter } from '../privacy/routes.js';
import { createBillingRouter } from '../fiscal/billingRoutes.js';
import { createReceiptRouter } from '../fiscal/receiptRoutes.js';

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
  api.use('/account', createProfileRouter(ctx));
  api.use('/account', createAccountActivityRouter(ctx));
  api.use('/account', createPlayCredentialsRouter(ctx));
  api.use('/publications', createPublicationsRouter(ctx));
  api.use('/download', createDownloadRouter(ctx));
  api.use('/plans', createPlansRouter(ctx));
  api.use('/payments', createPaymentsRouter(ctx));
  api.use('/payments', createReceiptRouter(ctx));
  // The client's fallback path for a failed /payments/create-pix call.
  api.post('/create-pix/:planId', ...createPixHandlers(ctx));
  api.use('/debug', createDebugRouter(ctx));
  api.use('/admin/plans', createAdminPlansRouter(ctx));
  api.use('/admin/payments', createAdminPaymentsRouter(ctx));
  api.use('/admin/emails', createAdminEmailsRouter(ctx));
  api.use('/admin/publications', createAdminPublicationsRouter(ctx));
  // Admin calls (dashboard, users, admins, conversions, queue, system, config); /admin/plans is a separate sub-router.
  api.use('/admin', createAdminRouter(ctx));
  api.use('/legal', createLegalRouter(ctx));
  api.use('/support', createSupportRouter(ctx));
  api.use('/account', createPrivacyRouter(ctx));
  api.use('/account', createBillingRouter(ctx));
  return api;
}
