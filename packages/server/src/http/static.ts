/**
 * Serves the built dashboard at / with an SPA fallback: any GET outside /api answers
 * index.html (for a landing screen's path, its variant that also preloads that screen). Hashed
 * assets get a year of immutable caching; index.html is never cached.
 * Text assets go out compressed: the build writes file.br and file.gz beside them, and a
 * client that accepts one gets it (Vary: Accept-Encoding), with no compression per request.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretsInUrl } from './requestLog.js';

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

const cacheControlOf = (path: string) => (HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');

/** Encodings the build writes beside text assets, the better first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The build's files with a .br or .gz beside them (paths from `dir`, /-separated); listed once, at start. */
function compressedFiles(dir: string): Set<string> {
  return new Set(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => ENCODINGS.some((e) => f.endsWith(e.suffix)))
      .map((f) => `/${f.split(sep).join('/')}`),
  );
}

/**
 * Sends `/file` of the build (from its listing: only those names reach the disk) as the best
 * encoding the client accepts; false when there is none to send, for the caller to send it plain.
 */
function sendCompressed(dir: string, available: Set<string>, file: string, req: Request, res: Response, next: NextFunction): boolean {
  const variants = ENCODINGS.filter((e) => available.has(file + e.suffix));
  if (!variants.length) return false;
  res.vary('Accept-Encoding');
  // Ours is the preference (brotli is smaller); the client's header only says what it accepts.
  const encoding = variants.find((e) => req.acceptsEncodings(e.name) === e.name);
  if (!encoding) return false;
  res.type(extname(file));
  res.setHeader('Content-Encoding', encoding.name);
  res.setHeader('Cache-Control', cacheControlOf(file));
  res.sendFile(join(dir, file + encoding.suffix), (err) => {
    if (err && !res.headersSent) next(err);
  });
  return true;
}

/** file.br / file.gz of the build for clients that accept them. */
function precompressed(dir: string, available: Set<string>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!sendCompressed(dir, available, req.path, req, res, next)) next();
  };
}

/**
 * The build's dist/routes/NAME.html: index.html that also preloads the lazy chunk of the screen
 * at /NAME (packages/dashboard/build.mjs), answered for that path. Listed once, at start.
 */
function landingPages(dir: string): Map<string, string> {
  const routes = join(dir, 'routes');
  if (!existsSync(routes)) return new Map();
  return new Map(
    readdirSync(routes)
      .filter((f) => f.endsWith('.html'))
      .map((f) => [`/${f.slice(0, -'.html'.length)}`, `/routes/${f}`]),
  );
}

export function dashboardRouter(dir: string | undefined): Router {
  const router = express.Router();
  if (!dir) {
    router.get(/^(?!\/api(\/|$)).*/, secretsInUrl({ query: ['token'] }), (_req, res) => {
      res.status(503).type('text/plain; charset=utf-8').send('O painel ainda não foi compilado. Rode "npm run build".');
    });
    return router;
  }
  const compressed = compressedFiles(dir);
  router.use(precompressed(dir, compressed));
  router.use(
    express.static(dir, {
      index: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', cacheControlOf(path));
      },
    }),
  );
  const landing = landingPages(dir);
  const index: RequestHandler = (req, res, next) => {
    const page = landing.get(req.path.replace(/\/+$/, '')) ?? '/index.html';
    if (sendCompressed(dir, compressed, page, req, res, next)) return;
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, page));
  };
  // The pages of e-mailed links (/reset-password, /verify-email) take their token in ?token=.
  router.get(/^(?!\/api(\/|$)).*/, secretsInUrl({ query: ['token'] }), index);
  return router;
}
