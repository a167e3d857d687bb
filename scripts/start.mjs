// `npm start`: builds whatever is missing or older than its sources (dashboard, server),
// then runs the server with embedded defaults. Signals pass through to the server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from './serverNodeFlags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function needsBuild(output, sourceDirs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sourceDirs.some((d) => existsSync(d) && (statSync(d).isDirectory() ? newestMtime(d) : statSync(d).mtimeMs) > built);
}

const pkg = (name) => join(root, 'packages', name);
const targets = [
  { name: 'dashboard', output: join(pkg('dashboard'), 'dist', 'index.html'), sources: [join(pkg('dashboard'), 'src'), join(pkg('dashboard'), 'index.html'), join(pkg('shared'), 'src')] },
  { name: 'server', output: join(pkg('server'), 'dist', 'main.js'), sources: [join(pkg('server'), 'src'), join(pkg('converter'), 'src'), join(pkg('shared'), 'src')] },
];
for (const t of targets) {
  if (!needsBuild(t.output, t.sources)) continue;
  console.log(`Compilando ${t.name}...`);
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: pkg(t.name), stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ['--enable-source-maps', ...SERVER_NODE_FLAGS, join(pkg('server'), 'dist', 'main.js')], { stdio: 'inherit', cwd: root, env: { ...SERVER_MALLOC_ENV, ...process.env } });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
