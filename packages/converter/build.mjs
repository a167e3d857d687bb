// The engine is consumed as TypeScript source by the server and CLI bundles; its build only
// checks that it bundles on its own.
import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

await buildNodeBundle({ entryPoints: { index: 'src/index.ts' }, outdir: 'dist' });
