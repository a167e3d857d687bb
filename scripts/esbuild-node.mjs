// Shared esbuild setup for the Node bundles (server, CLI): workspace packages (@aabify/*, which
// are TypeScript sources) are bundled in; every other dependency stays an import of node_modules,
// unless `inlineDependencies` asks for one self-contained file (the published CLI).
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

export async function buildNodeBundle({ entryPoints, outdir, inlineDependencies = false, define = {}, banner = '', sourcemap = true, metafile = false }) {
  return build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap,
    metafile,
    define,
    plugins: inlineDependencies ? [] : [keepWorkspaceInline],
    logLevel: 'warning',
    banner: { js: `${banner}import { createRequire as __aabifyCreateRequire } from 'node:module'; const require = __aabifyCreateRequire(import.meta.url);` },
  });
}
