import { Router } from 'express';
import type { AppContext } from '../context.js';
import { createHealthRouter } from './health/router.js';

/** Every API resource, mounted under /api. One folder per resource (router, schemas, tests). */
export function createApiRouter(ctx: AppContext): Router {
  const api = Router();
  api.use('/health', createHealthRouter(ctx));
  return api;
}
