import express, { type Express } from 'express';
import type { AppContext } from '../context.js';
import { createApiRouter } from '../routes/index.js';
import { apiNotFound, errorHandler } from './errors.js';
import { dashboardRouter, findDashboardDir } from './static.js';
import { requestLog } from './requestLog.js';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestLog(ctx.logger));
  app.use('/api', express.json({ limit: '1mb' }), createApiRouter(ctx), apiNotFound, errorHandler(ctx.logger));
  app.use(dashboardRouter(findDashboardDir(ctx.config.dashboardDir)));
  app.use(errorHandler(ctx.logger));
  return app;
}
