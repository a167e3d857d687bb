/**
 * The CLI as a pipeline runs it: `bin/aabify.js`, which runs the esbuild bundle when it is
 * newer than the sources. The bundle is built once per test run (about a second), so the tests
 * exercise what `npm run build` ships and never a stale bundle.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cliDir = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_BIN = fileURLToPath(new URL('../../bin/aabify.js', import.meta.url));

const built = spawnSync(process.execPath, ['build.mjs'], { cwd: cliDir, encoding: 'utf8' });
if (built.status !== 0) throw new Error(`falha ao compilar a CLI: ${built.stderr || built.stdout}`);

/** The environment of a spawned CLI: the caller's, without anything forcing the TypeScript sources. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.AABIFY_CLI_FROM_SOURCE;
  return env;
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI off a terminal (stdin closed, as in CI), killed after `timeoutMs`. */
export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
