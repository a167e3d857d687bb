// Shared esbuild setup for the Node bundles (server, CLI): workspace packages (@aabify/*, which
// are TypeScript sources) are bundled in; every other dependency stays an import of node_modules,
// unless `inlineDependencies` asks for one self-contained file (the published CLI).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const keepWorkspaceInline = {
  name: 'external-npm-deps',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@aabify/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bare imports of each named package resolve to the one copy `fromDir` resolves, whichever
 * workspace package imports it: npm may install a copy per workspace (undici 7 under both cli/
 * and converter/ while the root holds undici 6), and an inlined bundle would carry both.
 */
function onePackageCopy(packages, fromDir) {
  return {
    name: 'one-package-copy',
    setup(b) {
      const filter = new RegExp(`^(${packages.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
      b.onResolve({ filter }, (args) => (args.pluginData === onePackageCopy ? undefined : b.resolve(args.path, { kind: args.kind, resolveDir: fromDir, pluginData: onePackageCopy })));
    },
  };
}

/**
 * `startup: true` (the published CLI) makes an output Node starts faster: whitespace and comments
 * removed (less to scan). Every bundle gets every character outside ASCII escaped: esbuild already
 * escapes strings, but comments and regular expressions (one in yup's tiny-case) keep theirs, and
 * one character above U+00FF makes V8 hold the whole source as two-byte text — twice the memory in
 * every thread that loads it (the server's main thread and each engine thread) and slower to scan.
 */
/**
 * `format: 'cjs'` writes `.cjs` files (for a loader that runs them through `vm.Script`, whose code
 * cache Node's ES module loader does not offer), where `import.meta.url` is the file's URL (code
 * that also runs unbundled as ES modules may name it); ES modules get a `require` for inlined
 * CommonJS dependencies.
 */
export async function buildNodeBundle({ entryPoints, outdir, inlineDependencies = false, define = {}, banner = '', sourcemap = true, startup = false, onePackageCopy: single, format = 'esm' }) {
  const result = await build({
    entryPoints,
    outdir,
    write: false,
    bundle: true,
    platform: 'node',
    format,
    ...(format === 'cjs' ? { outExtension: { '.js': '.cjs' } } : {}),
    target: 'node20',
    sourcemap,
    metafile: true,
    ...(format === 'cjs' ? { define: { 'import.meta.url': 'importMetaUrl', ...define }, inject: [fileURLToPath(new URL('./esbuild-import-meta-url.mjs', import.meta.url))] } : { define }),
    minifyWhitespace: startup,
    legalComments: startup ? 'none' : 'eof',
    plugins: [...(inlineDependencies ? [] : [keepWorkspaceInline]), ...(single ? [onePackageCopy(single.packages, single.fromDir)] : [])],
    logLevel: 'warning',
    banner: { js: format === 'cjs' ? banner : `${banner}import { createRequire as __aabifyCreateRequire } from 'node:module'; const require = __aabifyCreateRequire(import.meta.url);` },
  });
  for (const out of result.outputFiles) {
    const text = /\.c?js$/.test(out.path) ? toAscii(out.text) : out.text;
    writeWhole(out.path, text);
  }
  return result;
}

/** \uXXXX means the same character in a string, a template, a regular expression or a comment. */
function toAscii(text) {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Each output appears whole or not at all: written beside and renamed over, so a process that runs
 * the bundle while another build writes it (test suites side by side, each building the CLI) never
 * reads half a file. Always written, even unchanged: the CLI's entry trusts a bundle newer than
 * its sources (packages/cli/bin/aabify.js).
 */
function writeWhole(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
