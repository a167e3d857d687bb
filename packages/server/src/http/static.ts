/**
 * Serves the built dashboard at / with an SPA fallback: any GET outside /api answers
 * index.html. Hashed assets get a year of immutable caching; index.html is never cached.
 */
import express, { type RequestHandler, type Router } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Finds packages/dashboard/dist from the server's sources or from its bundle in dist/. */
export function findDashboardDir(explicit?: string): string | undefined {
  if (explicit) return existsSync(join(explicit, 'index.html')) ? explicit : undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = resolve(dir, 'packages', 'dashboard', 'dist');
    const sibling = resolve(dir, 'dashboard', 'dist');
    for (const c of [sibling, candidate]) if (existsSync(join(c, 'index.html'))) return c;
    dir = dirname(dir);
  }
  return undefined;
}

const HASHED_ASSET = /-[A-Z0-9]{8,}\.(js|css|woff2?|svg|png|map)$/i;

export function dashboardRouter(dir: string | undefined): Router {
  const router = express.Router();
  if (!dir) {
    router.get(/^(?!\/api(\/|$)).*/, (_req, res) => {
      res.status(503).type('text/plain; charset=utf-8').send('O painel ainda não foi compilado. Rode "npm run build".');
    });
    return router;
  }
  router.use(
    express.static(dir, {
      index: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  const index: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'));
  };
  router.get(/^(?!\/api(\/|$)).*/, index);
  return router;
}
