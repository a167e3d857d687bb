/**
 * `aabify build-apks` as a user runs it: spawn the real bin on an AAB converted from a corpus APK
 * (skipped with a clear line when the corpus is absent, a failure in CI), assert the output file,
 * the summary, the JSON report, exit codes (0 ok, 1 failed, 2 usage), and that Debian's apksigner
 * accepts the signatures.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { requireOracles } from '../../converter/test/helpers/oracles.js';
import { ZipReader } from '../../converter/src/zip/index.js';
import { cliEnv, runCli, type CliRun } from './helpers/cli.js';

function parseJson(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${text}`);
  return value as Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

async function zipNames(path: string): Promise<string[]> {
  const zip = await ZipReader.open(path);
  try {
    return zip.entries.map((e) => e.name);
  } finally {
    await zip.close();
  }
}

describe('aabify build-apks', function () {
  this.timeout(180_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let aab: string | undefined;
  const aabify = (...args: string[]): Promise<CliRun> => runCli(args, { env, timeoutMs: 120_000 });

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-build-apks-'));
    // Its own config directory: the test key is made there.
    env = cliEnv({ XDG_CONFIG_HOME: join(dir, 'config') });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** jx-small converted by `convert --local`, once. */
  async function corpusAab(ctx: Mocha.Context): Promise<string> {
    const apk = requireCorpusApk(ctx, 'jx-small');
    if (aab) return aab;
    const out = join(dir, 'jx-small.aab');
    const r = await aabify('convert', '--local', apk.path, '-o', out);
    expect(r.status, r.stderr).to.equal(0);
    aab = out;
    return out;
  }

  describe('usage errors exit 2', () => {
    it('universalAndDeviceSpec_exit2', async () => {
      const r = await aabify('build-apks', join(dir, 'x.aab'), '--universal', '--device-spec', join(dir, 'spec.json'));
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('use --universal ou --device-spec/--device, não os dois');
    });

    it('unknownDeviceProfile_exit2_listsProfiles', async () => {
      const r = await aabify('build-apks', join(dir, 'x.aab'), '--device', 'galaxy');
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('perfil de aparelho desconhecido: galaxy').and.contain('arm64-v8a_xxhdpi_pt-BR');
    });

    it('missingDeviceSpecFile_exit2', async () => {
      const r = await aabify('build-apks', join(dir, 'x.aab'), '--device-spec', join(dir, 'absent.json'));
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('não foi possível ler a especificação do aparelho');
    });

    it('ksPassWithoutKs_exit2', async () => {
      const r = await aabify('build-apks', join(dir, 'x.aab'), '--ks-pass', 'pass:secret');
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain('exigem --ks <keystore>');
    });
  });

  describe('bad input exits 1 with a coded pt-BR error', () => {
    it('notZip_NOT_A_ZIP_noOutput', async () => {
      const input = join(dir, 'text.aab');
      writeFileSync(input, 'not a bundle, just text\n');
      const out = join(dir, 'text.apk');
      const r = await aabify('build-apks', input, '-o', out);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('erro: O arquivo não é um AAB válido (não é um arquivo ZIP). [NOT_A_ZIP]');
      expect(existsSync(out)).to.equal(false);
    });

    it('apkGivenAsBundleJson_NOT_AN_AAB', async function () {
      const apk = requireCorpusApk(this, 'jx-small');
      const r = await aabify('build-apks', apk.path, '-o', join(dir, 'apk-as-aab.apk'), '--json');
      expect(r.status).to.equal(1);
      expect(record(parseJson(r.stdout).error).code).to.equal('NOT_AN_AAB');
    });

    it('invalidDeviceSpec_INVALID_DEVICE_SPEC', async function () {
      const input = await corpusAab(this);
      const spec = join(dir, 'bad-spec.json');
      writeFileSync(spec, JSON.stringify({ supportedAbis: ['arm64-v8a'], supportedLocales: ['pt-BR'], screenDensity: 480 }));
      const r = await aabify('build-apks', input, '--device-spec', spec, '-o', join(dir, 'bad.apks'));
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('[INVALID_DEVICE_SPEC]').and.contain('sdkVersion');
    });
  });

  describe('an AAB converted from a corpus APK', () => {
    it('universal_testKey_summarySaysNotForPlay_apksignerVerifies_sameKeyNextTime', async function () {
      const { apksigner } = requireOracles(this, 'apksigner');
      const input = await corpusAab(this);
      const out = join(dir, 'universal.apk');
      const r = await aabify('build-apks', input, '--universal', '-o', out);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain(`APK universal gerado: ${out}`).and.contain('io.github.skylot.android.smallapp');
      expect(r.stdout).to.contain('chave de teste do aabify — NÃO serve para o Google Play').and.contain('[TEST_KEY_SIGNED]');
      // Not a terminal: plain progress lines, no carriage returns.
      expect(r.stderr).to.contain('Lendo o AAB…').and.contain('Gravando os APKs…').and.not.contain('\r');
      expect(statSync(join(dir, 'config', 'aabify', 'test-key.p12')).mode & 0o777).to.equal(0o600);
      const verified = execFileSync(apksigner, ['verify', '--verbose', out], { encoding: 'utf8' });
      expect(verified).to.contain('Verified using v2 scheme (APK Signature Scheme v2): true');
      expect(verified).to.contain('Verified using v3 scheme (APK Signature Scheme v3): true');

      // The next build signs with the same key, so it installs over this one.
      const again = await aabify('build-apks', input, '-o', out, '--json');
      expect(again.status, again.stderr).to.equal(1);
      expect(record(parseJson(again.stdout).error).code).to.equal('OUTPUT_EXISTS');
      const json = await aabify('build-apks', input, '-o', out, '--overwrite', '--json');
      expect(json.status, json.stderr).to.equal(0);
      const first = /SHA-256: +([0-9A-F:]+)/.exec(r.stdout)?.[1];
      const signature = record(record(parseJson(json.stdout).report).signature);
      expect(signature).to.include({ testKey: true, certificateSha256: first });
    });

    it('deviceSpec_apksSetOfSplits_jsonReport', async function () {
      const input = await corpusAab(this);
      const spec = join(dir, 'spec.json');
      writeFileSync(spec, JSON.stringify({ supportedAbis: ['arm64-v8a'], supportedLocales: ['pt-BR'], screenDensity: 480, sdkVersion: 30 }));
      const out = join(dir, 'device.apks');
      const r = await aabify('build-apks', input, '--device-spec', spec, '-o', out, '--json');
      expect(r.status, r.stderr).to.equal(0);
      const report = record(parseJson(r.stdout).report);
      expect(report).to.include({ mode: 'device', packageName: 'io.github.skylot.android.smallapp' });
      const apks = (report.apks as unknown[]).map((a) => String(record(a).path));
      expect(apks).to.include('splits/base-master.apk');
      // The table of contents bundletool's install-apks reads, then the APKs the report lists.
      expect(await zipNames(out)).to.have.members(['toc.pb', ...apks]);
    });

    it('ownKeystore_signedWithIt_notTheTestKey', async function () {
      const input = await corpusAab(this);
      const ks = join(dir, 'upload.p12');
      const k = await aabify('keygen', '-o', ks, '--ks-pass', 'pass:segredo123', '--dname', 'CN=Ana Souza, O=Teste');
      expect(k.status, k.stderr).to.equal(0);
      const out = join(dir, 'own.apk');
      const r = await aabify('build-apks', input, '-o', out, '--ks', ks, '--ks-key-alias', 'upload', '--ks-pass', 'pass:segredo123', '--json');
      expect(r.status, r.stderr).to.equal(0);
      const report = record(parseJson(r.stdout).report);
      expect(record(report.signature)).to.include({ alias: 'upload', subject: 'CN=Ana Souza, O=Teste', testKey: false });
      expect((report.warnings as unknown[]).map((w) => record(w).code)).to.not.include('TEST_KEY_SIGNED');
      expect(readFileSync(out).subarray(0, 2).toString('latin1')).to.equal('PK');
    });
  });
});
