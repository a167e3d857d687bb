import express, { Router, type Express } from 'express';
import type { AppContext } from '../context.js';
import { createApiRouter } from '../routes/index.js';
import { createHealthRouter, createReadyRouter } from '../routes/health/router.js';
import { apiNotFound, errorHandler } from './errors.js';
import { httpMetrics, metricsEndpoint } from './metrics.js';
import { dashboardRouter, findDashboardDir } from './static.js';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  if (ctx.metrics) {
    app.use(httpMetrics(ctx.metrics));
    // Outside /api: never under the API's rate limits.
    app.get('/metrics', metricsEndpoint(ctx.metrics, ctx.config.metricsToken));
  }
  app.use('/api', express.json({ limit: '1mb' }), createApiRouter(ctx), apiNotFound, errorHandler(ctx.logger));
  app.use(dashboardRouter(findDashboardDir(ctx.config.dashboardDir)));
  app.use(errorHandler(ctx.logger));
  return app;
}

/** A worker process's HTTP: only what orchestrators and Prometheus ask (health, ready, metrics). */
export function createOpsApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  if (ctx.metrics) app.get('/metrics', metricsEndpoint(ctx.metrics, ctx.config.metricsToken));
  const api = Router();
  api.use('/health', createHealthRouter(ctx));
  api.use('/ready', createReadyRouter(ctx));
  app.use('/api', api, apiNotFound, errorHandler(ctx.logger));
  app.use(apiNotFound, errorHandler(ctx.logger));
  return app;
}
