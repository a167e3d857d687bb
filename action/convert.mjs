// The GitHub Action's conversion step (action.yml): turns the action's inputs (INPUT_* variables
// that action.yml sets from `inputs`) into one `aabify convert` run. The CLI itself writes the
// step outputs ($GITHUB_OUTPUT) and the job summary ($GITHUB_STEP_SUMMARY) from the same object
// `aabify convert --json` prints. Plain JavaScript for Node 20.19+, no dependencies: the runner
// executes it as it is, nothing is built.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve, sep } from 'node:path';

const input = (name) => (process.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
const flag = (name) => /^(true|yes|1)$/i.test(input(name));

function fail(message) {
  console.log(`::error title=aabify::${message}`);
  process.exit(2);
}

/**
 * Whether a file name matches one glob segment (`*` any run of characters, `?` one), in time
 * proportional to the name times the segment: the greedy two-pointer walk that remembers only the
 * last `*`, never a backtracking regular expression (a segment like `*a*a*a*b` took exponential
 * time against a long name of a's).
 */
function segmentMatches(segment, name) {
  let s = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (s < segment.length && (segment[s] === '?' || segment[s] === name[n])) {
      s++;
      n++;
    } else if (s < segment.length && segment[s] === '*') {
      star = s++;
      resume = n;
    } else if (star >= 0) {
      s = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (s < segment.length && segment[s] === '*') s++;
  return s === segment.length;
}

/** The files a pattern names, relative to the workspace: a plain path or a glob. */
function expandPattern(pattern, cwd = process.cwd()) {
  if (!/[*?]/.test(pattern)) return [pattern];
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s) => s !== '' && s !== '.');
  const found = [];
  const walk = (dir, rest) => {
    if (rest.length === 0) {
      if (statSync(dir).isFile()) found.push(dir);
      return;
    }
    const [head, ...tail] = rest;
    if (head === '**') {
      walk(dir, tail);
      for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.name.startsWith('.')) walk(join(dir, e.name), rest);
      return;
    }
    if (!/[*?]/.test(head)) {
      const next = join(dir, head);
      try {
        statSync(next);
      } catch {
        return;
      }
      walk(next, tail);
      return;
    }
    for (const e of readdirSync(dir, { withFileTypes: true })) if (segmentMatches(head, e.name) && (tail.length > 0 ? e.isDirectory() : e.isFile())) walk(join(dir, e.name), tail);
  };
  const root = absolute ? '/' : cwd;
  walk(root, segments);
  const unique = [...new Set(found)].sort();
  return absolute ? unique : unique.map((f) => f.slice(cwd.length + 1).split(sep).join('/'));
}

function aabify(args, env) {
  const r = spawnSync('aabify', args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.error) fail(`não foi possível executar a CLI aabify: ${r.error.message}`);
  return r.status ?? 1;
}

const patterns = input('apk').split(/\r?\n/).map((p) => p.trim()).filter(Boolean);
if (patterns.length === 0) fail('informe o APK na entrada apk (caminho ou glob).');
const files = patterns.flatMap((p) => expandPattern(p));
if (files.length === 0) fail(`nenhum arquivo encontrado para: ${patterns.join(', ')}`);

const serverUrl = input('server-url');
const local = flag('local') || serverUrl === '';
const wait = input('wait') === '' || flag('wait');
const output = input('output') || `${basename(files[0], extname(files[0]))}.aab`;
const env = { AABIFY_KS_PASS: input('keystore-password'), AABIFY_KEY_PASS: input('key-password') };
// Google Play (docs/play.md): the key travels in the environment, never on a command line.
const track = input('publish-track');
if (input('play-key')) env.AABIFY_PLAY_KEY = input('play-key');
const releaseFlags = [
  ...(input('release-status') ? ['--release-status', input('release-status')] : []),
  ...(input('rollout') ? ['--rollout', input('rollout')] : []),
  ...(input('release-name') ? ['--release-name', input('release-name')] : []),
  ...input('release-notes').split(/\r?\n/).map((n) => n.trim()).filter(Boolean).flatMap((n) => ['--release-notes', n]),
];
if (!local) Object.assign(env, { AABIFY_URL: serverUrl, AABIFY_TOKEN: input('token') });

const failOn = input('fail-on');
if (failOn && failOn !== 'blocker' && failOn !== 'warning') fail(`fail-on deve ser blocker ou warning (recebido: ${failOn}).`);
const args = ['convert', ...files, '--json', '--overwrite', ...(failOn ? ['--fail-on', failOn] : [])];
for (const [option, file] of [['--github-output', process.env.GITHUB_OUTPUT], ['--summary', process.env.GITHUB_STEP_SUMMARY]]) if (file) args.push(option, file);
if (local || wait) args.push('-o', resolve(output));
if (local) args.push('--local');
else if (wait || track) args.push('--wait', ...(input('timeout') ? ['--timeout', input('timeout')] : []));
// Server mode publishes in the same run; local mode publishes the written AAB afterwards.
if (track && !local) args.push('--publish', track, ...releaseFlags);
if (track && local && (!input('play-key') || !input('package-name'))) fail('publish-track no modo local precisa de play-key e package-name.');

// The keystore arrives base64-encoded (a secret); it lives on disk, mode 600, only for this step.
const keystoreDir = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'aabify-ks-'));
let status;
try {
  if (flag('sign')) {
    const keystore = input('keystore');
    if (local && !keystore) fail('sign: true com local precisa da entrada keystore (o keystore em base64).');
    if (keystore && !env.AABIFY_KS_PASS) fail('informe keystore-password junto com keystore.');
    const keyFlags = [...(input('key-alias') ? ['--alias', input('key-alias')] : []), ...(env.AABIFY_KEY_PASS ? ['--key-pass', 'env:AABIFY_KEY_PASS'] : [])];
    let keystorePath;
    if (keystore) {
      keystorePath = join(keystoreDir, 'upload.keystore');
      writeFileSync(keystorePath, Buffer.from(keystore, 'base64'), { mode: 0o600 });
    }
    if (local) {
      args.push('--ks', keystorePath, '--ks-pass', 'env:AABIFY_KS_PASS', ...keyFlags.map((f) => (f === '--alias' ? '--ks-alias' : f)));
    } else {
      // Server mode signs with the account's keystore: the one given here replaces it first.
      if (keystorePath) {
        const uploaded = aabify(['keystore', 'upload', keystorePath, '--ks-pass', 'env:AABIFY_KS_PASS', ...keyFlags], env);
        if (uploaded !== 0) process.exit(uploaded);
      }
      args.push('--sign');
    }
  }
  status = aabify(args, env);
  // The app is the AAB's own package; package-name, when given, only confirms it.
  const packageFlags = input('package-name') ? ['--package', input('package-name')] : [];
  if (status === 0 && track && local) status = aabify(['publish', resolve(output), '--track', track, ...packageFlags, ...releaseFlags], env);
} finally {
  rmSync(keystoreDir, { recursive: true, force: true });
}
process.exit(status);
