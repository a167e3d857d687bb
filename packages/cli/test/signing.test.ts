/**
 * Signing from the CLI: password specs, `aabify keygen`, and `convert --local --ks` as a
 * pipeline sees them (spawned bin, exit codes 0 ok / 1 failed / 2 usage).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { KEYSTORE_ERROR_MESSAGES, KEYSTORE_LIMITS } from '@aabify/shared';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { manyBagsPkcs12, pkcs12WithMacIterations } from '../../converter/test/helpers/keystores.js';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { downloadSizeLines, downloadSizesOfReport, parsePasswordSpec, resolvePassword, signOptionsFrom } from '../src/signing.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const bin = CLI_BIN;

function aabify(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('signing flags', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-sign-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('parsePasswordSpec_bareText_refusedWithHint', () => {
    expect(() => parsePasswordSpec('segredo')).to.throw(InvalidArgumentError, /env:VARIAVEL/);
    expect(parsePasswordSpec('env:KS')).to.equal('env:KS');
  });

  it('resolvePassword_envPassFile_resolveEachForm', () => {
    const file = join(dir, 'pw.txt');
    writeFileSync(file, 'da-arquivo\nsegunda linha\n');
    process.env.AABIFY_TEST_KS = 'do-ambiente';
    expect(resolvePassword('env:AABIFY_TEST_KS', '--ks-pass')).to.equal('do-ambiente');
    expect(resolvePassword('pass:literal:com:dois-pontos', '--ks-pass')).to.equal('literal:com:dois-pontos');
    expect(resolvePassword(`file:${file}`, '--ks-pass')).to.equal('da-arquivo');
    expect(() => resolvePassword('env:AABIFY_TEST_NOPE', '--ks-pass')).to.throw(/AABIFY_TEST_NOPE não está definida/);
  });

  it('signOptionsFrom_aliasWithoutKeystore_refused', () => {
    expect(signOptionsFrom({})).to.equal(undefined);
    expect(() => signOptionsFrom({ ksAlias: 'upload' })).to.throw(/exigem --ks/);
    expect(() => signOptionsFrom({ ks: 'x.p12' })).to.throw(/--ks-pass/);
    expect(signOptionsFrom({ ks: 'x.p12', ksPass: 'pass:a', ksAlias: 'up' })).to.deep.equal({ keystore: 'x.p12', storePassword: 'a', alias: 'up' });
  });

  it('downloadSizesOfReport_serverJson_keepsWellFormedRowsOnly', () => {
    const good = { deviceId: 'phone', label: 'Celular', compatible: true, bundleBytes: 8, apkBytes: 10, savedBytes: 2, savedPercent: 20 };
    expect(downloadSizesOfReport({ downloadSizes: [good, { ...good, bundleBytes: 'x' }, { ...good, label: null }, null] })).to.deep.equal([
      { device: { label: 'Celular' }, compatible: true, bundleBytes: 8, apkBytes: 10, savedBytes: 2, savedPercent: 20 },
    ]);
    expect(downloadSizesOfReport(null)).to.deep.equal([]);
    expect(downloadSizesOfReport({ downloadSizes: 'nada' })).to.deep.equal([]);
  });

  it('downloadSizeLines_incompatibleDevice_saysSo', () => {
    const device = { id: 'x', label: 'Chromebook', abis: ['x86_64'], density: 320, locale: 'es', sdk: 33 };
    const lines = downloadSizeLines([
      { device, compatible: false, bundleBytes: 0, apkBytes: 10, savedBytes: 10, savedPercent: 100 },
      { device: { ...device, label: 'Celular' }, compatible: true, bundleBytes: 800_000, apkBytes: 1_000_000, savedBytes: 200_000, savedPercent: 20 },
    ]);
    expect(lines[0]).to.equal('Economia estimada por dispositivo (download pelo Google Play):');
    expect(lines[1]).to.contain('incompatível');
    expect(lines[2]).to.contain('800 kB com o AAB × 1 MB com o APK (−20%)');
  });
});

describe('aabify keygen and convert --local --ks', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-sign-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keygen_thenSignedConvert_printsFingerprintAndSignsWithIt', async function () {
    const apk = requireCorpusApk(this, 'jx-small');
    const ks = join(dir, 'upload.p12');
    const env = { AABIFY_TEST_KS_PASS: 'senha-forte-1' };
    const gen = await aabify(env, 'keygen', '-o', ks, '--dname', 'CN=Ana, O=Empresa, C=BR', '--ks-pass', 'env:AABIFY_TEST_KS_PASS', '--json');
    expect(gen.status, gen.stderr).to.equal(0);
    const key = (JSON.parse(gen.stdout) as { key: { sha256: string; certificatePem: string; alias: string } }).key;
    expect(key.alias).to.equal('upload');
    expect(key.certificatePem).to.match(/^-----BEGIN CERTIFICATE-----/);
    expect(existsSync(ks)).to.equal(true);

    const again = await aabify(env, 'keygen', '-o', ks, '--ks-pass', 'env:AABIFY_TEST_KS_PASS');
    expect(again.status).to.equal(2);
    expect(again.stderr).to.contain('já existe');

    const out = join(dir, 'app.aab');
    const conv = await aabify(env, 'convert', '--local', apk.path, '-o', out, '--ks', ks, '--ks-pass', 'env:AABIFY_TEST_KS_PASS', '--json');
    expect(conv.status, conv.stderr).to.equal(0);
    const report = (JSON.parse(conv.stdout) as { report: { signature: { certificateSha256: string }; downloadSizes: unknown[] } }).report;
    expect(report.signature.certificateSha256).to.equal(key.sha256);
    expect(report.downloadSizes).to.have.length(3);
  });

  it('convertLocal_wrongKeystorePassword_exit1WithCode', async function () {
    const apk = requireCorpusApk(this, 'jx-small');
    const ks = join(dir, 'other.p12');
    const made = await aabify({}, 'keygen', '-o', ks, '--ks-pass', 'pass:senha-certa');
    expect(made.status, made.stderr).to.equal(0);
    const out = join(dir, 'bad.aab');
    const r = await aabify({}, 'convert', '--local', apk.path, '-o', out, '--ks', ks, '--ks-pass', 'pass:errada');
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('erro: Senha do keystore incorreta. [KEYSTORE_PASSWORD]');
    expect(existsSync(out)).to.equal(false);
    const bare = await aabify({}, 'convert', '--local', apk.path, '-o', out, '--ks', ks, '--ks-pass', 'errada');
    expect(bare.status).to.equal(2);
  });
  it('convertLocal_ksOverTheCaps_exit1WithTheCodedMessageBeforeAnyHashing', async () => {
    // The engine's caps hold in the CLI too (it opens the keystore on its own thread): a MAC at
    // 1,000,000 iterations, a file of 101 bags and one over 64 KB, each refused with its code.
    const apk = join(dir, 'tiny.apk');
    writeFileSync(apk, buildZip(tinyApkEntries()));
    const cases: [string, Buffer, string][] = [
      ['iter.p12', pkcs12WithMacIterations('senha-certa', 1_000_000), 'KEYSTORE_ITERATIONS'],
      ['bags.p12', manyBagsPkcs12(KEYSTORE_LIMITS.maxBags + 1), 'KEYSTORE_TOO_MANY_ENTRIES'],
      ['big.p12', Buffer.alloc(KEYSTORE_LIMITS.maxBytes + 1, 0x30), 'KEYSTORE_TOO_LARGE'],
    ];
    for (const [name, bytes, code] of cases) {
      const ks = join(dir, name);
      writeFileSync(ks, bytes);
      const out = join(dir, `${name}.aab`);
      const r = await aabify({}, 'convert', '--local', apk, '-o', out, '--ks', ks, '--ks-pass', 'pass:senha-certa', '--json');
      expect(r.status, r.stderr).to.equal(1);
      expect(r.stderr).to.contain(`erro: ${KEYSTORE_ERROR_MESSAGES[code as keyof typeof KEYSTORE_ERROR_MESSAGES]} [${code}]`);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).to.equal(code);
      expect(existsSync(out)).to.equal(false);
    }
  });
});
