/**
 * protobufjs, loaded on first use. A conversion never needs it: it encodes with the generated
 * encoders (fastEncode.ts) from descriptors kept as source. Only decoding, validating a bundle,
 * describing a schema and AABIFY_CHECK_ENCODE do, and loading it (with its `long`) cost every
 * `aabify convert --local` ~4 ms of start. An `import` would load it with the first module that
 * names it: esbuild evaluates an inlined CommonJS package where the importing module starts.
 */
import { createRequire } from 'node:module';

type Protobufjs = typeof import('protobufjs');
let loaded: Protobufjs | undefined;

export function protobufjs(): Protobufjs {
  // A bundle (the CLI's, the server's) has CommonJS's `require`, and esbuild inlines the package
  // for this literal call; the sources run as ES modules (tsx: tests, scripts) have none.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (typeof require === 'function' ? require('protobufjs') : createRequire(import.meta.url)('protobufjs')) as Protobufjs;
  return loaded;
}
