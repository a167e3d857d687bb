import { Router } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import { findDashboardDir } from '../http/static.js';
import { openApiDocument } from './document.js';

/** The page the dashboard build writes for the API reference (no inline script: it passes `script-src 'self'`). */
export const API_DOCS_PAGE = 'api-docs.html';

/**
 * GET /api/openapi.json → the OpenAPI 3.1 document of this API (openapi/document.ts)
 * GET /api/docs → the reference page bundled with the dashboard, which reads that document;
 *   503 DOCS_NOT_BUILT when the dashboard has not been built.
 */
export function createOpenApiRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(openApiDocument(ctx.version));
  });
  router.get('/docs', (_req, res) => {
    const dir = findDashboardDir(ctx.config.dashboardDir);
    if (!dir || !existsSync(join(dir, API_DOCS_PAGE))) throw new ApiError(503, 'DOCS_NOT_BUILT', 'A referência da API ainda não foi compilada. Rode "npm run build".');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, API_DOCS_PAGE));
  });
  return router;
}
