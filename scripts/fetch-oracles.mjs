// Fetches the test oracles (never product dependencies): Google's bundletool jar and the aapt2
// binary it bundles, both taken from the nativescript npm package, which vendors them. Cached in
// <repo>/.cache/oracles/ (git-ignored). Idempotent: does nothing when both are already there.
//
//   npm run oracles
//
// Debian's `aapt`, `protobuf-compiler` (protoc) and a Java 17 runtime are installed by apt, not here.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, npmPackInto, run } from './npm-pack.mjs';

const TOOL = 'fetch-oracles';
const NATIVESCRIPT = 'nativescript@9.0.7';
const JAR_MEMBER = 'package/vendor/aab-tool/bundletool.jar';
const AAPT2_MEMBER = 'linux/aapt2';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(repo, '.cache', 'oracles');
const jarPath = join(cacheDir, 'bundletool.jar');
const aapt2Path = join(cacheDir, 'aapt2');

function present(path) {
  return existsSync(path) && statSync(path).size > 0;
}

if (present(jarPath) && present(aapt2Path)) {
  console.log(`fetch-oracles: already cached in ${cacheDir}`);
  process.exit(0);
}

mkdirSync(cacheDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'aabify-oracles-'));
try {
  if (!present(jarPath)) {
    npmPackInto(TOOL, NATIVESCRIPT, work, [JAR_MEMBER]);
    const extracted = join(work, JAR_MEMBER);
    if (!present(extracted)) fail(TOOL, `${JAR_MEMBER} not found in ${NATIVESCRIPT}`);
    // Write under a temporary name first so an interrupted run never leaves a half jar behind.
    renameSync(extracted, `${jarPath}.part`);
    renameSync(`${jarPath}.part`, jarPath);
    console.log(`fetch-oracles: bundletool.jar -> ${jarPath}`);
  }
  if (!present(aapt2Path)) {
    const bin = run(TOOL, 'unzip', ['-p', jarPath, AAPT2_MEMBER]);
    if (bin.length === 0) fail(TOOL, `${AAPT2_MEMBER} not found in ${jarPath}`);
    const part = `${aapt2Path}.part`;
    writeFileSync(part, bin);
    chmodSync(part, 0o755);
    renameSync(part, aapt2Path);
    console.log(`fetch-oracles: aapt2 -> ${aapt2Path}`);
  }
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) {
    console.warn('fetch-oracles: AVISO: java not found on PATH; bundletool needs Java 17 (apt-get install -y openjdk-17-jre-headless)');
  }
  console.log('fetch-oracles: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
