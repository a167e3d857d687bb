// Bundles the dashboard: hashed, code-split ESM + CSS into dist/, and an index.html that
// references them. `--watch` rebuilds on change.
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
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

async function writeIndex(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const js = outputs.find(([, o]) => o.entryPoint === 'src/main.tsx')?.[0];
  const css = outputs.find(([file, o]) => file.endsWith('.css') && o.entryPoint === 'src/main.tsx')?.[0]
    ?? outputs.find(([file]) => file.endsWith('.css'))?.[0];
  const template = await readFile('index.html', 'utf8');
  const html = template
    .replace('<!--css-->', css ? `<link rel="stylesheet" href="/assets/${basename(css)}">` : '')
    .replace('<!--js-->', `<script type="module" src="/assets/${basename(js)}"></script>`);
  await writeFile(`${outdir}/index.html`, html);
  await writePage(metafile, 'src/apiDocs/main.tsx', 'api-docs.html');
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
}
