// Injected into CommonJS bundles (esbuild-node.mjs): `import.meta.url` there is the bundle file's URL.
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
