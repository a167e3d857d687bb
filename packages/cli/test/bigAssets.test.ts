/**
 * A 300 MB APK of incompressible assets (a big game; made in the test's temp folder, never
 * committed) through the real CLI: `aabify convert --local --asset-pack media=media/**` gives a
 * bundle that `bundletool validate` accepts, whose base module is under Play's 200 MB with the
 * assets in the pack. Time and peak RSS of the same conversion: bench/README.md.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAY_LIMITS } from '@aabify/converter';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { writeBigAssetsApk } from '../../converter/test/helpers/bigApk.js';
import { requireOracles } from '../../converter/test/helpers/oracles.js';
import { validateBundle } from '../../converter/test/oracle/tools.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

function aabify(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface ModuleOut {
  name: string;
  kind: string;
  delivery?: string;
  sizeBytes: number;
}

describe('a 300 MB APK of incompressible assets', function () {
  this.timeout(5 * 60_000);
  let dir = '';
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('convertLocal_300MbAssetsWithAssetPack_bundletoolAcceptsBaseUnderLimit', async function () {
    const o = requireOracles(this, 'java', 'bundletoolJar');
    const base = requireCorpusApk(this, 'jx-small');
    dir = mkdtempSync(join(tmpdir(), 'aabify-big-'));
    const apk = join(dir, 'game.apk');
    const { mediaBytes } = writeBigAssetsApk(base.path, apk, 300);
    const out = join(dir, 'game.aab');
    const r = await aabify('convert', '--local', apk, '-o', out, '--asset-pack', 'media=media/**', '--json');
    expect(r.status, r.stderr).to.equal(0);
    const report = (JSON.parse(r.stdout) as { report: { modules: ModuleOut[]; warnings: { code: string }[] } }).report;
    const byName = new Map(report.modules.map((m) => [m.name, m]));
    expect(byName.get('base')!.sizeBytes).to.be.lessThan(PLAY_LIMITS.baseModule.bytes);
    expect(byName.get('media')).to.include({ kind: 'asset-pack', delivery: 'install-time' });
    expect(byName.get('media')!.sizeBytes).to.be.greaterThan(mediaBytes);
    expect(report.warnings.map((w) => w.code)).to.not.include('BASE_MODULE_TOO_LARGE');
    await validateBundle(o, out);
  });
});
