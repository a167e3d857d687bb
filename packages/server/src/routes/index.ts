import { Router } from 'express';
import type { AppContext } from '../context.js';
import { createHealthRouter } from './health/router.js';
import { createSetupRouter } from './setup/router.js';
import { createAuthRouter } from './auth/router.js';

/** Every API resource, mounted under /api. One folder per resource (router, schemas, tests). */
export function createApiRouter(ctx: AppContext): Router {
  const api = Router();
  api.use('/health', createHealthRouter(ctx));
  api.use('/setup', createSetupRouter(ctx));
  api.use('/auth', createAuthRouter(ctx));
  return api;
}
