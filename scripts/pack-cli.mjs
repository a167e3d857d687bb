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
const stage = mkdtempSync(join(tmpdir(), 'aabify-cli-pack-'));
// The release build goes to a folder of its own: dist/ may be in use by a test suite meanwhile.
const built = join(stage, 'built');
run(process.execPath, ['build.mjs', '--release', '--outdir', built], cliDir);

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

const packageDir = join(stage, 'package');
try {
  mkdirSync(join(packageDir, 'bin'), { recursive: true });
  copyFileSync(join(built, 'aabify.js'), join(packageDir, 'bin', 'aabify.js'));
  copyFileSync(join(built, 'aabify-main.cjs'), join(packageDir, 'bin', 'aabify-main.cjs'));
  chmodSync(join(packageDir, 'bin', 'aabify.js'), 0o755);
  copyFileSync(join(cliDir, 'README.md'), join(packageDir, 'README.md'));
  copyFileSync(join(repo, 'LICENSE'), join(packageDir, 'LICENSE'));
  writeFileSync(join(packageDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', destination], packageDir));
  console.log(join(destination, packed[0].filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
