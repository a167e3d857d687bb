/**
 * `aabify check` and `--fail-on` as a pipeline runs them: the built bin on apps linked by Google's
 * aapt2 (test oracle), a split set and a converted AAB; the checklist in JSON
 * (`[{ code, status, title, action }]`), and exit code 9 when a row reaches the `--fail-on` level
 * (the AAB of `convert` saved all the same).
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elfLibrary } from '../../converter/test/helpers/elf.js';
import { requireOracles, type Oracles } from '../../converter/test/helpers/oracles.js';
import { buildZip, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, makeServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { buildAapt2Apk } from '../../converter/test/oracle/aapt2Fixture.js';
import { cliEnv, runCli, type CliRun } from './helpers/cli.js';

const manifest = (permissions: string[] = []): string => `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.cli" android:versionCode="4" android:versionName="1.4">
  <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="36"/>
${permissions.map((p) => `  <uses-permission android:name="${p}"/>`).join('\n')}
  <application><activity android:name=".Main" android:exported="true"/></application>
</manifest>`;

interface Row {
  code: string;
  status: string;
  title: string;
  action: string | null;
}

function doc(r: CliRun): { checklist: Row[]; failOn?: { level: string; failed: boolean; codes: string[] } } & Record<string, unknown> {
  return JSON.parse(r.stdout) as { checklist: Row[] } & Record<string, unknown>;
}

describe('aabify check and --fail-on', function () {
  this.timeout(180_000);
  let o: Pick<Oracles, 'aapt2' | 'frameworkRes'>;
  let dir = '';
  let clean = '';
  let unaligned = '';
  const aabify = (...args: string[]): Promise<CliRun> => runCli(args, { env: cliEnv(), cwd: dir, timeoutMs: 120_000 });

  before(async function () {
    o = requireOracles(this, 'aapt2', 'frameworkRes');
    dir = mkdtempSync(join(tmpdir(), 'aabify-check-'));
    clean = await buildAapt2Apk(o, dir, 'clean', { manifest: manifest(), files: { 'lib/arm64-v8a/libok.so': elfLibrary() } });
    unaligned = await buildAapt2Apk(o, dir, 'unaligned', {
      manifest: manifest(['android.permission.READ_SMS']),
      files: { 'lib/arm64-v8a/libflutter.so': elfLibrary({ alignments: [4096] }) },
    });
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('check_cleanApk_exit0WithoutBlockersOrWarningsEvenWithFailOnWarning', async () => {
    const r = await aabify('check', clean, '--json', '--fail-on', 'warning');
    expect(r.status, r.stderr).to.equal(0);
    const d = doc(r);
    expect(d).to.include({ ok: true, container: 'apk' });
    expect(d.app).to.deep.equal({ packageName: 'com.example.cli', versionName: '1.4', versionCode: 4, minSdk: 24, targetSdk: 36, abis: ['arm64-v8a'] });
    expect(d.checklist.filter((c) => c.status !== 'ok')).to.deep.equal([]);
    expect(d.checklist.map((c) => c.code)).to.not.include.members(['signature', 'size']);
    expect(d.failOn).to.deep.equal({ level: 'warning', failed: false, codes: [] });
  });

  it('check_unalignedLibrary_blockerAndExit9OnlyWithFailOn', async () => {
    const plain = await aabify('check', unaligned);
    expect(plain.status, plain.stderr).to.equal(0);
    expect(plain.stdout).to.contain('[IMPEDE]').and.contain('lib/arm64-v8a/libflutter.so (4 KB; costuma vir de Flutter)');
    const failing = await aabify('check', unaligned, '--json', '--fail-on', 'blocker');
    expect(failing.status).to.equal(9);
    expect(failing.stderr).to.contain('--fail-on blocker: 1 item do checklist do Google Play (pageSize16k)');
    const d = doc(failing);
    const row = d.checklist.find((c) => c.code === 'pageSize16k')!;
    expect(row.status).to.equal('blocker');
    expect(row.action).to.be.a('string').and.contain('NDK');
    expect(d.checklist.find((c) => c.code === 'permissions')).to.include({ status: 'warning' });
    expect(d.failOn).to.deep.equal({ level: 'blocker', failed: true, codes: ['pageSize16k'] });
    const warnings = await aabify('check', unaligned, '--fail-on', 'warning');
    expect(warnings.status).to.equal(9);
    expect(warnings.stderr).to.contain('(pageSize16k, permissions)');
  });

  it('check_splitSetWithTheLibraryInAConfigSplit_sameBlocker', async () => {
    const split = join(dir, 'split_config.arm64_v8a.apk');
    writeFileSync(
      split,
      buildZip([
        { name: 'AndroidManifest.xml', data: tinyManifest({ packageName: 'com.example.cli', versionCode: 4, split: 'config.arm64_v8a' }) },
        { name: 'lib/arm64-v8a/libextra.so', data: elfLibrary({ alignments: [8192] }), method: 0 },
      ]),
    );
    const r = await aabify('check', clean, split, '--json', '--fail-on', 'blocker');
    expect(r.status, r.stderr).to.equal(9);
    const d = doc(r);
    expect(d.container).to.equal('files');
    expect(d.checklist.find((c) => c.code === 'pageSize16k')!.title).to.contain('lib/arm64-v8a/libextra.so (8 KB)');
  });

  it('convertLocal_failOnBlocker_aabSavedExit9AndChecklistInJson', async () => {
    const out = join(dir, 'unaligned.aab');
    const r = await aabify('convert', '--local', unaligned, '-o', out, '--json', '--fail-on', 'blocker');
    expect(r.status, r.stderr).to.equal(9);
    expect(existsSync(out), 'the AAB is saved all the same').to.equal(true);
    const d = doc(r);
    expect(d.ok).to.equal(true);
    expect(d.checklist.find((c) => c.code === 'pageSize16k')).to.include({ status: 'blocker' });
    expect(d.checklist.find((c) => c.code === 'signature')).to.include({ status: 'warning', title: 'O AAB não está assinado' });
    expect(d.failOn).to.deep.equal({ level: 'blocker', failed: true, codes: ['pageSize16k'] });

    const bundle = await aabify('check', out, '--json');
    expect(bundle.status, bundle.stderr).to.equal(0);
    const b = doc(bundle);
    expect(b.container).to.equal('aab');
    expect(b.notChecked).to.deep.equal([]);
    expect(b.checklist.map((c) => `${c.code}:${c.status}`)).to.include.members(['pageSize16k:blocker', 'signature:warning', 'size:ok']);
  });

  describe('the versionCode against Google Play (a stand-in speaking its API)', () => {
    let google: GooglePlayStandIn;
    let keyFile = '';
    const withPlay = (...args: string[]): Promise<CliRun> => runCli(args, { env: cliEnv({ ...google.env, AABIFY_PLAY_KEY: undefined }), cwd: dir, timeoutMs: 120_000 });
    before(async () => {
      google = await new GooglePlayStandIn().start();
      const account = makeServiceAccount('checks');
      google.addServiceAccount(account);
      keyFile = join(dir, 'chave.json');
      writeFileSync(keyFile, account.json);
    });
    after(async () => google?.stop());

    it('check_versionCodeNotAboveThePlaysHighest_blockerAndTheEditIsDeleted', async () => {
      google.addApp('com.example.cli', { usedVersionCodes: [3, 4], apksVersionCodes: [2] });
      const r = await withPlay('check', clean, '--play-key', keyFile, '--package', 'com.example.cli', '--json', '--fail-on', 'blocker');
      expect(r.status, r.stderr).to.equal(9);
      const d = doc(r);
      expect(d.play).to.deep.equal({ highestVersionCode: 4 });
      expect(d.checklist.find((c) => c.code === 'versionCode')).to.include({
        status: 'blocker',
        title: 'versionCode 4 não é maior que o maior já enviado ao Google Play (4): o Play Console recusa o envio',
      });
      expect(google.openEdits, 'nothing left open on Play').to.deep.equal([]);
    });

    it('convertLocal_versionCodePlay_theNextOneWrittenAndTheRowOk', async () => {
      google.addApp('com.example.cli', { usedVersionCodes: [9] });
      const out = join(dir, 'next.aab');
      const r = await withPlay('convert', '--local', clean, '-o', out, '--version-code', 'play', '--play-key', keyFile, '--json', '--fail-on', 'blocker');
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stderr).to.contain('Maior versionCode no Google Play: 9; o AAB sai com 10.');
      const d = doc(r);
      expect(d.app).to.include({ versionCode: 10 });
      expect(d.checklist.find((c) => c.code === 'versionCode')).to.include({ status: 'ok', title: 'versionCode 10 é maior que o maior já enviado ao Google Play (9)' });
      expect((d.warnings as { code: string }[]).map((w) => w.code)).to.include('VERSION_CODE_OVERRIDDEN');
      const bundle = await withPlay('check', out, '--play-key', keyFile, '--json');
      expect(doc(bundle).app).to.include({ versionCode: 10 });
    });

    it('check_appUnknownToPlayOrWrongPackage_playExitCodeOrUsage', async () => {
      google.apps.clear();
      const unknown = await withPlay('check', clean, '--play-key', keyFile, '--json');
      expect(unknown.status).to.equal(7);
      expect((doc(unknown) as unknown as { error: { code: string } }).error.code).to.equal('PLAY_APP_NOT_FOUND');
      const wrong = await withPlay('check', clean, '--play-key', keyFile, '--package', 'com.outro.app');
      expect(wrong.status).to.equal(2);
      expect(wrong.stderr).to.contain('--package com.outro.app não é o pacote do app (com.example.cli)');
      const noKey = await withPlay('convert', '--local', clean, '-o', join(dir, 'x.aab'), '--version-code', 'play');
      expect(noKey.status).to.equal(2);
      expect(noKey.stderr).to.contain('precisa da chave do Google Play');
    });
  });

  it('failOn_unknownLevel_usageError2', async () => {
    const r = await aabify('check', clean, '--fail-on', 'tudo');
    expect(r.status).to.equal(2);
    expect(r.stderr).to.contain('use blocker');
  });
});
