import express, { Router, type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { AppContext } from '../context.js';
import type { Logger } from '../logger.js';
import { markIo, type IoMark } from '../db/notifiedCache.js';
import { createApiRouter } from './api.js';
import { createHealthRouter, createReadyRouter } from '../ops/healthRoutes.js';
import { apiNotFound, errorHandler } from './errors.js';
import { httpMetrics, metricsEndpoint } from '../ops/metrics.js';
import { dashboardRouter, findDashboardDir } from './static.js';
import { requestLog } from './requestLog.js';

/**
 * Security headers on every answer (API and dashboard alike). The dashboard is one origin
 * with no inline script (index.html loads /theme.js); React and react-bootstrap set styles
 * through the CSSOM, which style-src does not govern; only style attributes are allowed inline
 * (e-mail previews), never a <style> element. PIX QR
 * codes are data: images. No upgrade-insecure-requests: a plain-HTTP install on a LAN must
 * keep working.
 */
export const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      // Style attributes only (no <style> elements, no script): e-mail bodies carry their styles
      // in attributes, as mail clients require, and Admin › E-mails previews them in a sandboxed
      // srcdoc frame, which inherits this policy.
      styleSrcAttr: ["'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
});

/**
 * Behind a proxy TRUST_PROXY does not trust, every client has the proxy's address: one visitor
 * can then spend everyone's sign-in and bad-credential limits. Said once per process, on the
 * first request whose X-Forwarded-For was ignored.
 */
function warnOnceAboutUntrustedForwarding(logger: Logger): RequestHandler {
  let warned = false;
  return (req, _res, next) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined && req.ip === req.socket.remoteAddress) {
      warned = true;
      logger.warn(
        { proxy: req.socket.remoteAddress },
        'X-Forwarded-For from a proxy TRUST_PROXY does not trust: rate limits see the proxy\'s address for every client (set TRUST_PROXY)',
      );
    }
    next();
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** When the request arrived, for the in-memory row caches (db/notifiedCache.ts). */
      ioMark?: IoMark;
    }
  }
}

/** Marks each request's arrival before anything else runs for it. */
const markArrival: RequestHandler = (req, _res, next) => {
  req.ioMark = markIo();
  next();
};

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  // Which proxies may tell the client's address (X-Forwarded-For): TRUST_PROXY, default loopback.
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(markArrival);
  app.use(warnOnceAboutUntrustedForwarding(ctx.logger));
  app.use(securityHeaders);
  app.use(requestLog(ctx.logger));
  app.use(httpMetrics(ctx.metrics));
  // Outside /api: never under the API's rate limits.
  app.get('/metrics', metricsEndpoint(ctx.metrics, ctx.config.metricsToken));
  // Stripe signs the exact bytes of its events: that one body stays raw (the JSON parser then leaves it alone).
  app.use('/api/payments/stripe/webhook', express.raw({ type: () => true, limit: '1mb' }));
  app.use('/api', express.json({ limit: '1mb' }), createApiRouter(ctx), apiNotFound, errorHandler(ctx.logger));
  app.use(dashboardRouter(findDashboardDir(ctx.config.dashboardDir)));
  app.use(errorHandler(ctx.logger));
  return app;
}

/** A worker process's HTTP: only what orchestrators and Prometheus ask (health, ready, metrics). */
export function createOpsApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsEndpoint(ctx.metrics, ctx.config.metricsToken));
  const api = Router();
  api.use('/health', createHealthRouter(ctx));
  api.use('/ready', createReadyRouter(ctx));
  app.use('/api', api, apiNotFound, errorHandler(ctx.logger));
  app.use(apiNotFound, errorHandler(ctx.logger));
  return app;
}
