// `npm run pack:cli`: the publishable CLI package, dist/aabify-cli-<version>.tgz. Its package.json
// is written here from packages/cli/package.json (the one place for name and version): `bin` is
// the entry that runs the self-contained esbuild bundle bin/aabify-main.cjs beside it with V8's
// code cache (engine, shared code and npm dependencies inlined in the bundle), so it has
// no runtime dependencies, no TypeScript and no tsx; with the README for the registry's page and
// the licence. Prints the tarball's path.
//
//   npm run pack:cli                 # build + pack into dist/
//   node scripts/pack-cli.mjs --pack-destination DIR
//   npm publish dist/aabify-cli-0.1.0.tgz --access public
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(repo, 'packages', 'cli');
const at = process.argv.indexOf('--pack-destination');
const destination = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : join(repo, 'dist');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) {
    console.error(`pack-cli: ${cmd} ${args.join(' ')} failed (${r.status})`);
    process.exit(1);
  }
  return r.stdout;
}

const workspace = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8'));
run(process.execPath, ['build.mjs', '--release'], cliDir);

const manifest = {
  name: workspace.name,
  version: workspace.version,
  description: workspace.description,
  keywords: ['android', 'apk', 'aab', 'app-bundle', 'google-play', 'ci', 'cli'],
  license: 'MIT',
  type: 'module',
  bin: { aabify: 'bin/aabify.js' },
  files: ['bin/aabify.js', 'bin/aabify-main.cjs', 'README.md', 'LICENSE'],
  engines: { node: '>=20.19' },
  // Everything the CLI runs is inlined in bin/aabify.js.
  dependencies: {},
};

const stage = mkdtempSync(join(tmpdir(), 'aabify-cli-pack-'));
try {
  mkdirSync(join(stage, 'bin'));
  copyFileSync(join(cliDir, 'dist', 'aabify.js'), join(stage, 'bin', 'aabify.js'));
  copyFileSync(join(cliDir, 'dist', 'aabify-main.cjs'), join(stage, 'bin', 'aabify-main.cjs'));
  chmodSync(join(stage, 'bin', 'aabify.js'), 0o755);
  copyFileSync(join(cliDir, 'README.md'), join(stage, 'README.md'));
  copyFileSync(join(repo, 'LICENSE'), join(stage, 'LICENSE'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', destination], stage));
  console.log(join(destination, packed[0].filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
