// Bundles the dashboard: hashed, code-split ESM + CSS into dist/, and an index.html that
// references them. `--watch` rebuilds on change.
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
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

/**
 * @aabify/shared's modules only declare things (messages, yup schemas, helpers): nothing of them
 * is needed for its effects, so what a chunk does not use is left out of it (esbuild otherwise
 * keeps every top-level call, e.g. each schema's construction, of every module the barrel names).
 */
const sharedWithoutSideEffects = {
  name: 'shared-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^@aabify\/shared(\/.*)?$/ }, async (args) => {
      if (args.pluginData === 'shared') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'shared' });
      return resolved.errors.length ? resolved : { path: resolved.path, sideEffects: false };
    });
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'shared' || !/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(args.importer)) return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'shared' });
      return resolved.errors.length ? resolved : { path: resolved.path, sideEffects: false };
    });
  },
};

// Tests build into a folder of their own (AABIFY_DASHBOARD_OUTDIR), never under a server serving dist/.
const outdir = process.env.AABIFY_DASHBOARD_OUTDIR ?? 'dist';
const options = {
  entryPoints: { main: 'src/main.tsx' },
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
  plugins: [reactRouterProduction, sharedWithoutSideEffects],
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
  login: 'src/pages/publicScreens.ts',
  register: 'src/pages/publicScreens.ts',
};

// The API reference page served at /api/docs (api-docs.html): a build of its own, one file. As a
// second entry point of the app's build it shared react with it, which cut the app's code into
// more chunks (more requests on the app's first load).
const apiDocsOptions = { ...options, entryPoints: { apiDocs: 'src/apiDocs/main.tsx' }, splitting: false };
const writeApiDocs = (metafile) => writePage(metafile, 'src/apiDocs/main.tsx', 'api-docs.html');

async function writeIndex(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const js = outputs.find(([, o]) => o.entryPoint === 'src/main.tsx')?.[0];
  const css = outputs.find(([file, o]) => file.endsWith('.css') && o.entryPoint === 'src/main.tsx')?.[0]
    ?? outputs.find(([file]) => file.endsWith('.css'))?.[0];
  const template = await readFile('index.html', 'utf8');
  // Every chunk the entry needs to start (its imports, and what its start-up stages import),
  // announced up front: the browser fetches them in parallel with the entry instead of one
  // import level at a time. At low priority: the stylesheet, which the first paint waits for,
  // gets the connection first (the page's first paint is its HTML, the scripts come after).
  const entryChunks = startImports(metafile, js);
  const page = (preloaded) =>
    template
      .replace('<!--css-->', (css ? `<link rel="stylesheet" href="/assets/${basename(css)}">` : '') + preloaded.map((chunk) => `\n    <link rel="modulepreload" fetchpriority="low" href="/assets/${basename(chunk)}">`).join(''))
      .replace('<!--js-->', `<script type="module" src="/assets/${basename(js)}"></script>`);
  await writeFile(`${outdir}/index.html`, page(entryChunks));
  await mkdir(`${outdir}/routes`, { recursive: true });
  const prerendered = await prerenderer();
  for (const [name, entryPoint] of Object.entries(LANDING_ROUTES)) {
    const chunk = outputs.find(([file, o]) => o.entryPoint === entryPoint && file.endsWith('.js'))?.[0];
    if (!chunk) throw new Error(`${entryPoint}: no chunk (is it still imported lazily?)`);
    const extra = [chunk, ...staticImports(metafile, chunk)].filter((c) => !entryChunks.includes(c));
    let html = page([...entryChunks, ...extra]);
    if (prerendered.PRERENDERED_PATHS.includes(`/${name}`)) html = withScreen(html, prerendered.prerender(`/${name}`));
    await writeFile(`${outdir}/routes/${name}.html`, html);
  }
}

/**
 * src/prerender.tsx built for Node and loaded: the landing screens' markup from the real
 * components. Their modules touch the page at import (the theme store applies the theme), so
 * `window` and `document` are bare stand-ins while they load.
 */
async function prerenderer() {
  const file = join(tmpdir(), `aabify-prerender-${process.pid}.cjs`);
  await build({
    entryPoints: ['src/prerender.tsx'],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    jsx: 'automatic',
    define: options.define,
    loader: { '.css': 'empty', '.woff': 'empty', '.woff2': 'empty', '.svg': 'empty', '.png': 'empty' },
    logLevel: 'warning',
    plugins: [reactRouterProduction],
  });
  const had = { window: globalThis.window, document: globalThis.document };
  globalThis.window = {};
  globalThis.document = { documentElement: { setAttribute() {} } };
  try {
    return (await import(pathToFileURL(file).href)).default;
  } finally {
    Object.assign(globalThis, had);
    await rm(file, { force: true });
  }
}

/**
 * The route's HTML with its screen painted before any script: shown when a session is stored
 * (public/theme.js marks the page; styles.css), the loading line otherwise. The app's first
 * render replaces both. Test ids are left out: tests wait for the app's own elements.
 */
function withScreen(html, markup) {
  const screen = markup.replace(/ data-testid="[^"]*"/g, '');
  const root = '<div id="root">';
  const at = html.indexOf(root);
  if (at < 0) throw new Error('index.html: no <div id="root">');
  return `${html.slice(0, at + root.length)}<div class="boot-screen">${screen}</div>${html.slice(at + root.length)}`;
}

/** The chunks the entry imports statically and those its stages import (main.tsx), transitively; entry excluded. */
function startImports(metafile, entry) {
  const stages = (metafile.outputs[entry]?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
  const all = new Set(staticImports(metafile, entry));
  for (const stage of stages) for (const c of [stage, ...staticImports(metafile, stage)]) all.add(c);
  all.delete(entry);
  return [...all];
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
const onEnd = (name, write) => ({ name, setup(b) { b.onEnd((r) => r.metafile && write(r.metafile)); } });
if (process.argv.includes('--watch')) {
  const app = await context({ ...options, plugins: [...options.plugins, onEnd('index', writeIndex)] });
  const apiDocs = await context({ ...apiDocsOptions, plugins: [...options.plugins, onEnd('api-docs', writeApiDocs)] });
  await Promise.all([app.watch(), apiDocs.watch()]);
} else {
  const [app, apiDocs] = await Promise.all([build(options), build(apiDocsOptions)]);
  await writeIndex(app.metafile);
  await writeApiDocs(apiDocs.metafile);
  const metafile = { inputs: { ...apiDocs.metafile.inputs, ...app.metafile.inputs }, outputs: { ...apiDocs.metafile.outputs, ...app.metafile.outputs } };
  await writeFile(`${outdir}/meta.json`, JSON.stringify(metafile));
  await precompress(outdir);
}
