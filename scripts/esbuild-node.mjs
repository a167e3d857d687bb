// Shared esbuild setup for the Node bundles (server, CLI): workspace packages (@aabify/*, which
// are TypeScript sources) are bundled in; every other dependency stays an import of node_modules.
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

export async function buildNodeBundle({ entryPoints, outdir }) {
  await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [keepWorkspaceInline],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __aabifyCreateRequire } from 'node:module'; const require = __aabifyCreateRequire(import.meta.url);" },
  });
}
