import { buildNodeBundle } from '../../scripts/esbuild-node.mjs';

await buildNodeBundle({ entryPoints: { main: 'src/main.ts' }, outdir: 'dist' });
