/**
 * The offline commands (`convert --local`, `inspect`, `validate`) as a pipeline sees them: spawn
 * the real bin, assert stdout, stderr and exit codes (0 ok, 1 failed, 2 usage). Uses a corpus APK
 * (skipped with a clear line when the corpus is absent, a failure in CI) and a tiny hand-made
 * file that is not a zip.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { buildZip, tinyApkEntries, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const bin = CLI_BIN;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI, stdin closed, never on a TTY (as in CI). */
function aabify(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function parseJson(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${text}`);
  return value as Record<string, unknown>;
}

describe('aabify offline commands', function () {
  this.timeout(120_000);
  let dir: string;
  let notZip: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-cli-'));
    notZip = join(dir, 'not-a-zip.apk');
    writeFileSync(notZip, 'this is not an APK, just a few bytes of text\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('usage errors exit 2', () => {
    it('help_listsOfflineCommands_exit0', async () => {
      const r = await aabify('--help');
      expect(r.status).to.equal(0);
      expect(r.stdout).to.contain('convert').and.contain('inspect').and.contain('validate');
    });

    it('unknownOption_exit2', async () => {
      const r = await aabify('inspect', '--frobnicate', notZip);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain("unknown option '--frobnicate'");
    });

    it('missingArgument_exit2', async () => {
      const r = await aabify('validate');
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain("missing required argument 'aab'");
    });

    it('convertLocalWithoutOutput_exit2', async () => {
      const r = await aabify('convert', '--local', notZip);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('informe o arquivo de saída com -o');
    });

    it('convertLocalBadVersionCode_exit2', async () => {
      const r = await aabify('convert', '--local', notZip, '-o', join(dir, 'x.aab'), '--version-code', '12abc');
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('o código de versão deve ser um número inteiro positivo');
    });
  });

  describe('a file that is not a zip', () => {
    it('inspect_notZip_ptBrMessageAndCode_exit1', async () => {
      const r = await aabify('inspect', notZip);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('erro: O arquivo não é um APK válido (não é um arquivo ZIP). [NOT_A_ZIP]');
      expect(r.stdout).to.equal('');
    });

    it('convertLocal_notZip_exit1_noOutputFile', async () => {
      const out = join(dir, 'not-a-zip.aab');
      const r = await aabify('convert', '--local', notZip, '-o', out);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('[NOT_A_ZIP]');
      expect(existsSync(out)).to.equal(false);
    });

    it('convertLocalJson_notZip_jsonErrorOnStdout_exit1', async () => {
      const r = await aabify('convert', '--local', notZip, '-o', join(dir, 'y.aab'), '--json');
      expect(r.status).to.equal(1);
      const body = parseJson(r.stdout);
      expect(body.ok).to.equal(false);
      expect(body.error).to.include({ code: 'NOT_A_ZIP', message: 'O arquivo não é um APK válido (não é um arquivo ZIP).' });
    });

    it('validate_notZip_exit1', async () => {
      const r = await aabify('validate', notZip);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.match(/erro: |AAB inválido/);
    });

    it('inspect_missingFile_exit1', async () => {
      const r = await aabify('inspect', join(dir, 'does-not-exist.apk'));
      expect(r.status).to.equal(1);
      expect(r.stderr).to.match(/^erro: .+ \[[A-Z_]+\]$/m);
    });
  });

  describe('an APK whose manifest carries escape sequences and workflow commands', () => {
    // Its package name: an OSC window title, a newline then a GitHub Actions command, a bidi override.
    const hostileName = 'com.x\x1b]0;pwn\x07\n::error title=forged::x\u202e';
    /** The lines a terminal or a CI runner would act on: escapes, bidi overrides, workflow commands. */
    // eslint-disable-next-line no-control-regex
    const actedOn = (text: string): string[] => text.split('\n').filter((l) => /[\x1b\x9b\u202e]/.test(l) || l.trimStart().startsWith('::'));

    it('inspectAndConvertLocal_hostilePackageName_printedInert', async () => {
      const apk = join(dir, 'hostile-name.apk');
      const entries = tinyApkEntries();
      entries[0] = { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, packageName: hostileName }) };
      writeFileSync(apk, buildZip(entries));
      for (const args of [['inspect', apk], ['convert', '--local', apk, '-o', join(dir, 'hostile-name.aab'), '--overwrite']]) {
        const r = await aabify(...args);
        expect(r.status, r.stderr).to.equal(0);
        expect(actedOn(r.stdout), `${args[0]} stdout`).to.deep.equal([]);
        expect(actedOn(r.stderr), `${args[0]} stderr`).to.deep.equal([]);
        // Still shown, folded onto its line.
        expect(r.stdout).to.match(/Pacote: +com\.x ::error title=forged::x$/m);
      }
    });
  });

  describe('a corpus APK', () => {
    it('inspect_corpusApk_factsInPtBr_exit0', async function () {
      const apk = requireCorpusApk(this, 'drozer-agent');
      const r = await aabify('inspect', apk.path);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('Pacote:').and.contain('com.mwr.dz');
      expect(r.stdout).to.contain('ABIs:').and.contain('armeabi-v7a');
      expect(r.stdout).to.contain('Arquivos dex:');
    });

    it('inspectJson_corpusApk_apkInfo_exit0', async function () {
      const apk = requireCorpusApk(this, 'drozer-agent');
      const r = await aabify('inspect', apk.path, '--json');
      expect(r.status, r.stderr).to.equal(0);
      const body = parseJson(r.stdout);
      expect(body.ok).to.equal(true);
      expect(body.apk).to.include({ packageName: 'com.mwr.dz', versionCode: 5, minSdk: 7, targetSdk: 18, dexCount: 1 });
    });

    it('convertLocal_corpusApk_summaryThenValidates_thenRefusesOverwrite', async function () {
      const apk = requireCorpusApk(this, 'jx-small');
      const out = join(dir, 'jx-small.aab');
      const r = await aabify('convert', '--local', apk.path, '-o', out);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain(`AAB gerado: ${out}`).and.contain('io.github.skylot.android.smallapp');
      // Not a terminal: plain progress lines on stderr, no carriage returns.
      expect(r.stderr).to.contain('Lendo o APK…').and.not.contain('\r');
      expect(existsSync(out)).to.equal(true);

      const v = await aabify('validate', out);
      expect(v.status, v.stderr).to.equal(0);
      expect(v.stdout).to.contain('AAB válido');

      const again = await aabify('convert', '--local', apk.path, '-o', out);
      expect(again.status).to.equal(1);
      expect(again.stderr).to.contain('[OUTPUT_EXISTS]');
    });

    it('convertLocalJson_versionOverrides_reportCarriesThem', async function () {
      const apk = requireCorpusApk(this, 'jx-small');
      const out = join(dir, 'jx-small-v42.aab');
      const r = await aabify('convert', '--local', apk.path, '-o', out, '--version-code', '42', '--version-name', '4.2', '--json', '--overwrite');
      expect(r.status, r.stderr).to.equal(0);
      const body = parseJson(r.stdout);
      expect(body.ok).to.equal(true);
      expect(body.report).to.include({ packageName: 'io.github.skylot.android.smallapp', versionCode: 42, versionName: '4.2' });
      expect(r.stderr).to.equal('');
    });

    it('validate_apkInsteadOfAab_listsProblems_exit1', async function () {
      const apk = requireCorpusApk(this, 'jx-small');
      const r = await aabify('validate', apk.path, '--json');
      expect(r.status).to.equal(1);
      const body = parseJson(r.stdout);
      expect(body.ok).to.equal(false);
      // Either a list of broken rules, or an error saying it is no bundle at all.
      if (Array.isArray(body.problems)) expect(body.problems.length).to.be.greaterThan(0);
      else expect(body.error).to.be.an('object');
    });
  });

  describe('split sets, OBB files and asset packs', () => {
    let base: string;
    let abi: string;
    let obb: string;
    before(() => {
      base = join(dir, 'base.apk');
      abi = join(dir, 'split_config.x86_64.apk');
      obb = join(dir, 'main.1.com.example.tiny.obb');
      writeFileSync(base, buildZip(tinyApkEntries()));
      writeFileSync(abi, buildZip([
        { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, split: 'config.x86_64' }) },
        { name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 },
      ]));
      writeFileSync(obb, Buffer.alloc(100_000, 3));
    });

    it('convertLocalJson_severalApksObbAndAssetPack_reportListsModulesAndSplits', async () => {
      const out = join(dir, 'set.aab');
      const r = await aabify('convert', '--local', base, abi, '--obb', obb, '--asset-pack', 'sons=*.mp3:on-demand', '-o', out, '--json');
      expect(r.status, r.stderr).to.equal(0);
      const report = parseJson(r.stdout).report as { modules: { name: string; kind: string; delivery?: string }[]; splits: { role: string }[]; abis: string[] };
      expect(report.modules.map((m) => `${m.name}:${m.kind}:${m.delivery ?? ''}`)).to.deep.equal(['base:base:', 'sons:asset-pack:on-demand', 'obb_main:asset-pack:install-time']);
      expect(report.splits.map((s) => s.role)).to.deep.equal(['master', 'config.x86_64']);
      expect(report.abis).to.deep.equal(['arm64-v8a', 'x86_64']);
      const v = await aabify('validate', out);
      expect(v.status, v.stdout + v.stderr).to.equal(0);
    });

    it('convertLocal_splitSet_summaryShowsModulesAndMergedSplits', async () => {
      const out = join(dir, 'set2.aab');
      const r = await aabify('convert', '--local', base, abi, '-o', out);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('Módulos:').and.contain('- base: base').and.contain('Splits mesclados (files):');
      expect(r.stdout).to.contain('split_config.x86_64.apk → base (config.x86_64)');
    });

    it('convertLocal_badAssetPackFlag_exit2', async () => {
      const r = await aabify('convert', '--local', base, '-o', join(dir, 'x2.aab'), '--asset-pack', 'no-glob');
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('use NOME=GLOB[:entrega]');
    });

    it('convertLocal_onlyConfigSplit_missingBaseSplitPtBr_exit1', async () => {
      const r = await aabify('convert', '--local', abi, join(dir, 'main.1.com.example.tiny.obb'), '-o', join(dir, 'x3.aab'));
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('[NOT_A_BASE_APK]');
    });

    it('inspect_splitsAndObb_describesSetAndObb', async () => {
      const r = await aabify('inspect', base, abi, '--obb', obb);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('Conjunto: files').and.contain('configurações: x86_64');
      expect(r.stdout).to.contain('OBB (viram pacotes de assets na conversão):').and.contain('main.1.com.example.tiny.obb: 100 kB; main, versionCode 1, pacote com.example.tiny');
    });
  });
});

