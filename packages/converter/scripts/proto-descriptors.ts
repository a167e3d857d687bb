/**
 * Writes src/proto/descriptors.ts from the aapt.pb and android.bundle schemas
 * (src/proto/aaptSchema.ts, src/proto/bundleSchema.ts), and from them the encoders
 * (src/proto/generated/encoders.ts): run after changing either schema (test/fastEncode.test.ts
 * says when).
 *
 *   npx tsx packages/converter/scripts/proto-descriptors.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AAPT_PROTO } from '../src/proto/aaptSchema.js';
import { BUNDLE_PROTO } from '../src/proto/bundleSchema.js';
import { converterDescriptors, descriptorsSource } from '../src/proto/describe.js';
import { encodersModuleSource } from '../src/proto/encoderSource.js';

const descriptors = converterDescriptors([AAPT_PROTO, BUNDLE_PROTO]);
for (const [file, text] of [
  ['../src/proto/descriptors.ts', descriptorsSource(descriptors)],
  ['../src/proto/generated/encoders.ts', encodersModuleSource(descriptors)],
] as const) {
  const out = fileURLToPath(new URL(file, import.meta.url));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
