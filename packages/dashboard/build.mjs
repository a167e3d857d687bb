// Bundles the dashboard: hashed, code-split ESM + CSS into dist/, and an index.html that
// references them. `--watch` rebuilds on change.
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { writeIconModule } from './scripts/icons.mjs';

// react-router's package exports only point at its development build; the production build
// sits beside it (same API, no dev warnings, ~20 KB smaller).
const require = createRequire(import.meta.url);
const routerDist = join(dirname(require.resolve('react-router/package.json')), 'dist', 'production');
const reactRouterProduction = {
  name: 'react-router-production',
  setup(b) {
    b.onResolve({ filter: /^react-router(\/dom)?$/ }, (args) => ({
      path: join(routerDist, args.path === 'react-router' ? 'index.mjs' : 'dom-export.mjs'),
    }));
  },
};

const outdir = 'dist';
const options = {
  // apiDocs: the API reference page served at /api/docs (api-docs.html).
  entryPoints: { main: 'src/main.tsx', apiDocs: 'src/apiDocs/main.tsx' },
  outdir: `${outdir}/assets`,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: true,
  metafile: true,
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
  plugins: [reactRouterProduction],
};

/**
 * Screens people land on whose lazy chunk is worth fetching with the entry's: the build writes
 * dist/routes/NAME.html for each, preloading that chunk too, and the server answers it for
 * /NAME (packages/server/src/http/static.ts) — the screen then renders without a second round
 * of requests after main runs. Other paths get index.html, without them.
 */
const LANDING_ROUTES = {
  converter: 'src/pages/converter/ConverterPage.tsx',
  dashboard: 'src/pages/customerScreens.ts',
};

async function writeIndex(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const js = outputs.find(([, o]) => o.entryPoint === 'src/main.tsx')?.[0];
  const css = outputs.find(([file, o]) => file.endsWith('.css') && o.entryPoint === 'src/main.tsx')?.[0]
    ?? outputs.find(([file]) => file.endsWith('.css'))?.[0];
  const template = await readFile('index.html', 'utf8');
  // Every chunk the entry imports statically, announced up front: the browser fetches them in
  // parallel with the entry instead of one import level at a time.
  const entryChunks = staticImports(metafile, js);
  const page = (preloaded) =>
    template
      .replace('<!--css-->', (css ? `<link rel="stylesheet" href="/assets/${basename(css)}">` : '') + preloaded.map((chunk) => `\n    <link rel="modulepreload" href="/assets/${basename(chunk)}">`).join(''))
      .replace('<!--js-->', `<script type="module" src="/assets/${basename(js)}"></script>`);
  await writeFile(`${outdir}/index.html`, page(entryChunks));
  await mkdir(`${outdir}/routes`, { recursive: true });
  for (const [name, entryPoint] of Object.entries(LANDING_ROUTES)) {
    const chunk = outputs.find(([file, o]) => o.entryPoint === entryPoint && file.endsWith('.js'))?.[0];
    if (!chunk) throw new Error(`${entryPoint}: no chunk (is it still imported lazily?)`);
    const extra = [chunk, ...staticImports(metafile, chunk)].filter((c) => !entryChunks.includes(c));
    await writeFile(`${outdir}/routes/${name}.html`, page([...entryChunks, ...extra]));
  }
  await writePage(metafile, 'src/apiDocs/main.tsx', 'api-docs.html');
}

/** The chunks `entry` needs before it runs (its static imports, transitively), entry excluded. */
function staticImports(metafile, entry) {
  const seen = new Set([entry]);
  const visit = (file) => {
    for (const i of metafile.outputs[file]?.imports ?? []) {
      if (i.kind !== 'import-statement' || seen.has(i.path)) continue;
      seen.add(i.path);
      visit(i.path);
    }
  };
  visit(entry);
  seen.delete(entry);
  return [...seen];
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = /\.(js|css|svg|html)$/;

/**
 * file.br and file.gz beside every text asset, compressed once here at their best levels; the
 * server sends them to clients that accept them (http/static.ts), with no work per request.
 */
async function precompress(dir) {
  const files = (await readdir(dir, { recursive: true })).filter((f) => COMPRESSIBLE.test(f));
  await Promise.all(
    files.map(async (f) => {
      const path = join(dir, f);
      const raw = await readFile(path);
      if (raw.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotliAsync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        gzipAsync(raw, { level: 9 }),
      ]);
      if (br.length < raw.length) await writeFile(`${path}.br`, br);
      if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
    }),
  );
}

/** A page of its own entry point: its script and its CSS bundle, no inline script (CSP `script-src 'self'`). */
async function writePage(metafile, entryPoint, page) {
  const [js, output] = Object.entries(metafile.outputs).find(([file, o]) => o.entryPoint === entryPoint && file.endsWith('.js'));
  const template = await readFile(page, 'utf8');
  const html = template
    .replace('<!--css-->', output.cssBundle ? `<link rel="stylesheet" href="/assets/${basename(output.cssBundle)}">` : '')
    .replace('<!--js-->', `<script type="module" src="/assets/${basename(js)}"></script>`);
  await writeFile(`${outdir}/${page}`, html);
}

await writeIconModule();
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await copyFile('public/favicon.svg', `${outdir}/favicon.svg`);
await copyFile('public/theme.js', `${outdir}/theme.js`);
if (process.argv.includes('--watch')) {
  const ctx = await context({ ...options, plugins: [reactRouterProduction, { name: 'index', setup(b) { b.onEnd((r) => r.metafile && writeIndex(r.metafile)); } }] });
  await ctx.watch();
} else {
  const result = await build(options);
  await writeIndex(result.metafile);
  await writeFile(`${outdir}/meta.json`, JSON.stringify(result.metafile));
  await precompress(outdir);
}
