/**
 * Writes src/proto/descriptors.ts from the aapt.pb and android.bundle schemas
 * (src/proto/aapt-schema.ts, src/proto/bundle-schema.ts): run after changing either
 * (test/fast-encode.test.ts says when).
 *
 *   npx tsx packages/converter/scripts/proto-descriptors.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AAPT_PROTO } from '../src/proto/aapt-schema.js';
import { BUNDLE_PROTO } from '../src/proto/bundle-schema.js';
import { converterDescriptors, descriptorsSource } from '../src/proto/describe.js';

const out = fileURLToPath(new URL('../src/proto/descriptors.ts', import.meta.url));
writeFileSync(out, descriptorsSource(converterDescriptors([AAPT_PROTO, BUNDLE_PROTO])));
console.log(`wrote ${out}`);
