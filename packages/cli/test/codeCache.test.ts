/**
 * The built CLI's V8 code cache (src/start.ts, src/codeCache.ts): written once after a
 * successful run, kept while V8 accepts it, replaced when it is corrupt or from another build,
 * and never in the way when its directory is unusable or it is turned off.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { codeCacheFile } from '../src/codeCache.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('CLI code cache', function () {
  this.timeout(60_000);
  let home = '';
  let cacheDir = '';

  const aabify = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', env: cliEnv({ XDG_CACHE_HOME: home, AABIFY_URL: '', AABIFY_CODE_CACHE: '', ...extra }) });
  const cacheFiles = (): string[] => {
    try {
      return readdirSync(cacheDir).sort();
    } catch {
      return [];
    }
  };
  const versionRuns = (extra: NodeJS.ProcessEnv = {}): void => {
    const r = aabify(['--version'], extra);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal(VERSION);
  };

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'aabify-code-cache-'));
    cacheDir = join(home, 'aabify', 'code-cache');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('codeCacheFile_keyedByBundleNodeArchAndCommand', () => {
    const env = { XDG_CACHE_HOME: '/c' };
    const hash = 'ab'.repeat(32);
    expect(codeCacheFile(env, hash, 'convert')).to.equal(`/c/aabify/code-cache/${'ab'.repeat(8)}-node${process.versions.node}-${process.arch}-convert.bin`);
    expect(codeCacheFile(env, hash, '--help')).to.match(/-cli\.bin$/);
    expect(codeCacheFile(env, hash, undefined)).to.match(/-cli\.bin$/);
    expect(codeCacheFile(env, hash, '../../x')).to.match(/-cli\.bin$/);
    expect(codeCacheFile({ ...env, AABIFY_CODE_CACHE: '0' }, hash, 'convert')).to.equal(undefined);
  });

  it('firstRun_writesTheCache_laterRunsUseItUnchanged', () => {
    versionRuns();
    const files = cacheFiles();
    expect(files).to.have.length(1);
    expect(files[0]).to.match(new RegExp(`^[0-9a-f]{16}-node${process.versions.node}-${process.arch}-cli\\.bin$`));
    const file = join(cacheDir, files[0]);
    const written = readFileSync(file);
    expect(written.length).to.be.greaterThan(10_000);
    const mtime = statSync(file).mtimeMs;
    versionRuns();
    // V8 accepted it: nothing rewritten.
    expect(statSync(file).mtimeMs).to.equal(mtime);
    expect(readFileSync(file).equals(written)).to.equal(true);
  });

  it('convertLocal_cacheWrittenOnce_acceptedByTheNextConversion', () => {
    // convert --local changes V8 flags for the conversion (converter/src/v8flags.ts); V8 keys a
    // code cache by the flags, so they must be V8's defaults again when the cache is written.
    const apk = join(home, 'app.apk');
    writeFileSync(apk, buildZip(tinyApkEntries()));
    const convert = (): void => {
      const r = aabify(['convert', '--local', apk, '-o', join(home, 'app.aab'), '--overwrite']);
      expect(r.status, r.stderr).to.equal(0);
    };
    convert();
    expect(cacheFiles()).to.have.length(1);
    const file = join(cacheDir, cacheFiles()[0]);
    expect(file).to.match(/-convert\.bin$/);
    const written = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    convert();
    convert();
    expect(statSync(file).mtimeMs, 'rewritten: V8 rejected the cache').to.equal(mtime);
    expect(readFileSync(file).equals(written)).to.equal(true);
  });

  it('perCommand_aSubcommandGetsItsOwnFile', () => {
    const r = aabify(['inspect', '--help']);
    expect(r.status, r.stderr).to.equal(0);
    expect(cacheFiles()).to.have.length(1);
    expect(cacheFiles()[0]).to.match(/-inspect\.bin$/);
  });

  it('corruptCache_ignoredAndReplaced', () => {
    versionRuns();
    const file = join(cacheDir, cacheFiles()[0]);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    versionRuns();
    const replaced = readFileSync(file);
    expect(replaced.equals(garbage)).to.equal(false);
    // The replacement is accepted in turn.
    const mtime = statSync(file).mtimeMs;
    versionRuns();
    expect(statSync(file).mtimeMs).to.equal(mtime);
  });

  it('anotherBuildsCache_ignored_removedOnlyOnceOld', () => {
    versionRuns();
    const [current] = cacheFiles();
    const other = (digit: string): string => `${digit.repeat(16)}${current.slice(16)}`;
    // Another build's file under this build's name would be rejected by V8; under its own name
    // it is never read. One in use lately stays (two CLIs used in turn must not evict each
    // other); one unwritten for two days goes when this build writes its own.
    writeFileSync(join(cacheDir, other('0')), 'not a cache');
    writeFileSync(join(cacheDir, other('1')), 'not a cache either');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(join(cacheDir, other('1')), twoDaysAgo, twoDaysAgo);
    rmSync(join(cacheDir, current));
    versionRuns();
    expect(cacheFiles()).to.deep.equal([other('0'), current].sort());
  });

  it('manyCacheFiles_oldestRemoved', () => {
    versionRuns();
    const [current] = cacheFiles();
    for (let i = 0; i < 30; i++) {
      const name = `${i.toString(16).padStart(16, 'f')}${current.slice(16)}`;
      writeFileSync(join(cacheDir, name), 'x');
      const when = new Date(Date.now() - (i + 1) * 60_000);
      utimesSync(join(cacheDir, name), when, when);
    }
    rmSync(join(cacheDir, current));
    versionRuns();
    const left = cacheFiles();
    expect(left).to.have.length(24);
    expect(left).to.include(current);
  });

  it('emptyCacheFile_ignoredAndReplaced', () => {
    versionRuns();
    const file = join(cacheDir, cacheFiles()[0]);
    writeFileSync(file, '');
    versionRuns();
    expect(statSync(file).size).to.be.greaterThan(10_000);
  });

  it('unusableCacheDirectory_runsAsUsual', () => {
    // XDG_CACHE_HOME names a file: the cache directory cannot be made (root ignores modes).
    const blocker = join(home, 'not-a-dir');
    writeFileSync(blocker, 'x');
    versionRuns({ XDG_CACHE_HOME: blocker });
    const r = aabify(['--help'], { XDG_CACHE_HOME: blocker });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include('Usage: aabify');
    expect(r.stderr).to.equal('');
  });

  it('turnedOff_writesNothing', () => {
    versionRuns({ AABIFY_CODE_CACHE: '0' });
    expect(cacheFiles()).to.deep.equal([]);
  });

  it('failedRun_writesNothing', () => {
    const r = aabify(['inspect', join(home, 'missing.apk')]);
    expect(r.status).to.not.equal(0);
    expect(cacheFiles()).to.deep.equal([]);
  });
});
