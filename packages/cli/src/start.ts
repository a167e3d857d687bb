/**
 * The release CLI's entry (dist/aabify.js): runs the CLI's bundle (aabify-main.cjs beside it)
 * with a V8 code cache, so a run after the first one skips most of compiling the 1.5 MB bundle
 * and the functions its command needs (~30 ms for `--help`, ~50–70 ms for a conversion).
 *
 * The cache lives in the user's cache directory (codeCacheDir), one file per bundle, Node
 * version, architecture and command (a conversion compiles other functions than `--help`), and
 * is written once, after a successful run, when it was missing or V8 rejected it. It is only
 * ever an optimisation: unreadable, stale, corrupt or unwritable, the bundle compiles as usual.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { VERIFY_WORKER_FROM, prestartVerifierThread } from '@aabify/converter/verifier-thread';
import { codeCacheFile, readCodeCache, writeCodeCache } from './codeCache.js';

/**
 * A local conversion or universal APK of an input large enough for a verifier thread (the engine
 * starts one: VERIFY_WORKER_FROM) gets it started now, before the bundle is read and compiled,
 * so it boots on the other core meanwhile. The input is any argument naming a file that large;
 * a wrong guess costs a thread that boots and is never used.
 */
function prestartsVerifier(args: readonly string[]): boolean {
  const [command, ...rest] = args;
  if (!((command === 'convert' && rest.includes('--local')) || (command === 'build-apks' && rest.includes('--universal')))) return false;
  return rest.some((arg) => !arg.startsWith('-') && (statSync(arg, { throwIfNoEntry: false })?.size ?? 0) >= VERIFY_WORKER_FROM);
}
if (prestartsVerifier(process.argv.slice(2))) prestartVerifierThread();

/** SHA-256 (hex) of aabify-main.cjs, set by build.mjs: the cache's key for this bundle. */
declare const AABIFY_BUNDLE_HASH: string;

const bodyPath = fileURLToPath(new URL('./aabify-main.cjs', import.meta.url));
const source = readFileSync(bodyPath, 'utf8');
const cacheFile = codeCacheFile(process.env, AABIFY_BUNDLE_HASH, process.argv[2]);
const cachedData = cacheFile ? readCodeCache(cacheFile) : undefined;
// The CommonJS wrapper Node itself uses, so the bundle runs exactly as `require` would run it.
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bodyPath,
  ...(cachedData ? { cachedData } : {}),
});
if (cacheFile && (!cachedData || script.cachedDataRejected)) {
  // After the run, so the cache holds the functions the command compiled, not just the top level.
  process.once('exit', (code) => {
    if (code === 0) writeCodeCache(cacheFile, () => script.createCachedData());
  });
}
const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(bodyPath), module, bodyPath, dirname(bodyPath));
