/**
 * The converter page in a real browser against a real server, the real engine and a stand-in of
 * Google Play: an `.aab` chosen on /converter is an AAB → APK conversion (the kind shown, the test
 * key said plainly), its APK downloaded from the page verifies with Debian's apksigner and the
 * history lists the kind; the same `.aab` with "Conjunto para um aparelho" and a profile chosen
 * downloads that profile's `.apks`, its base APK verified; and the versionCode option "uma acima da do Google Play" converts with
 * the next versionCode after Play's, which the checklist confirms.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { DEVICE_PROFILES, convertApk } from '@aabify/converter';
import { APKS_OUTPUT_TEXTS, TEST_APK_MESSAGES } from '@aabify/shared';
import { ZipReader } from '../../../converter/src/zip/index.js';
import { buildZip, tinyApkEntries } from '../../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, makeServiceAccount } from '../../../converter/test/helpers/googlePlayStandIn.js';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildCreditUser, tokenFor } from '../helpers/factories.js';
import { requireTool } from '../helpers/conversions.js';
import { api } from '../helpers/http.js';
import { openPage, sessionOf, shootBoth } from './dashboardHelpers.js';

const PKG = 'com.aabify.navegador';

describe('dashboard: AAB → APK and the versionCode against Google Play in a real browser', function () {
  this.timeout(180_000);
  let server: TestServer;
  let browser: Browser;
  let google: GooglePlayStandIn;
  let dir: string;

  before(async function () {
    requireChromium(this);
    dir = await mkdtemp(join(tmpdir(), 'aabify-e2e-aab-'));
    await writeFile(join(dir, 'app.apk'), buildZip(tinyApkEntries({ versionCode: 42, packageName: PKG })));
    await convertApk(join(dir, 'app.apk'), join(dir, 'Meu Bundle.aab'));
    google = await new GooglePlayStandIn().start();
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt(), ...google.env });
    await buildAdmin(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await google?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('converter_aabChosen_kindShown_apkDownloadedVerifies_historyShowsTheKind', async function () {
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const owner = await buildCreditUser(server, 3);
    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, owner) });
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles(join(dir, 'Meu Bundle.aab'));
    await page.getByTestId('chosen-file').waitFor();
    await soon(() => page.getByTestId('kind-chosen').textContent(), (v) => expect(v).to.contain('AAB → APK'));
    // Without an upload key the page says the APK gets the test key; no versionCode option for an APK.
    await soon(() => page.getByTestId('sign-hint').textContent(), (v) => expect(v).to.contain('NUNCA para o Google Play'));
    expect(await page.getByTestId('version-code-option').count()).to.equal(0);
    await page.getByRole('button', { name: 'Gerar APK' }).click();
    await page.getByTestId('result-completed').waitFor({ timeout: 90_000 });
    await soon(() => page.getByTestId('apk-signature').textContent(), (v) => expect(v).to.equal(TEST_APK_MESSAGES.signedWithTestKey));
    expect(await page.getByTestId('conversion-kind').first().textContent()).to.equal('AAB → APK');
    expect(await page.getByTestId('result-filename').textContent()).to.equal('Meu Bundle.apk');
    expect(await page.getByRole('button', { name: 'Testar no celular' }).count()).to.equal(0);
    await shootBoth(page, 'converter-aab-to-apk');

    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar APK' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).to.equal('Meu Bundle.apk');
    const apk = join(dir, 'downloaded.apk');
    await writeFile(apk, await readFile((await download.path())!));
    const { stdout } = await promisify(execFile)(apksigner, ['verify', '--verbose', apk]);
    expect(stdout).to.match(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);

    await page.goto(`${server.url}/history`);
    await page.getByTestId('history-row').first().waitFor();
    await soon(() => page.getByTestId('history-row').first().getByTestId('conversion-kind').textContent(), (v) => expect(v).to.equal('AAB → APK'));
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('converter_aabDeviceSetForAProfile_apksDownloadedHoldsItsSplits_baseVerifies_historySaysWhatWasBuilt', async function () {
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const profile = DEVICE_PROFILES.find((p) => p.abis[0] === 'arm64-v8a')!;
    const owner = await buildCreditUser(server, 3);
    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, owner) });
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles(join(dir, 'Meu Bundle.aab'));
    await page.getByTestId('chosen-file').waitFor();
    // The universal APK is the default; the set takes a profile named as the size estimate names it.
    expect(await page.getByLabel(APKS_OUTPUT_TEXTS.universal).isChecked()).to.equal(true);
    const deviceSet = page.getByLabel(APKS_OUTPUT_TEXTS.deviceSet);
    await soon(() => deviceSet.isEnabled(), (v) => expect(v).to.equal(true));
    await deviceSet.check();
    await page.getByTestId('apks-device').selectOption({ label: profile.label });
    await page.getByRole('button', { name: 'Gerar APK' }).click();
    await page.getByTestId('result-completed').waitFor({ timeout: 90_000 });
    await soon(() => page.getByTestId('result-built').textContent(), (v) => expect(v).to.equal(APKS_OUTPUT_TEXTS.builtDeviceSet(profile.label)));
    expect(await page.getByTestId('result-filename').textContent()).to.equal('Meu Bundle.apks');
    expect(await page.getByTestId('result-apks').textContent()).to.contain('splits/base-master.apk').and.contain('splits/base-arm64_v8a.apk');
    await shootBoth(page, 'converter-aab-device-set');

    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('button', { name: APKS_OUTPUT_TEXTS.download }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).to.equal('Meu Bundle.apks');
    const set = join(dir, 'downloaded.apks');
    await writeFile(set, await readFile((await download.path())!));
    const reader = await ZipReader.open(set);
    let base: Buffer;
    try {
      expect(reader.entries.map((e) => e.name)).to.include.members(['toc.pb', 'splits/base-master.apk', 'splits/base-arm64_v8a.apk']);
      base = await reader.read(reader.entries.find((e) => e.name === 'splits/base-master.apk')!);
    } finally {
      await reader.close();
    }
    await writeFile(join(dir, 'base-master.apk'), base);
    const { stdout } = await promisify(execFile)(apksigner, ['verify', '--verbose', join(dir, 'base-master.apk')]);
    expect(stdout).to.match(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);

    await page.goto(`${server.url}/history`);
    await page.getByTestId('history-row').first().waitFor();
    await soon(() => page.getByTestId('history-row').first().getByTestId('history-built').textContent(), (v) => expect(v).to.equal(APKS_OUTPUT_TEXTS.builtDeviceSet(profile.label)));
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('converter_versionCodeOneAbovePlays_aabGetsTheNextOne_checklistSaysSo', async () => {
    const account = makeServiceAccount('navegador');
    google.reset();
    google.addServiceAccount(account);
    google.addApp(PKG, { usedVersionCodes: [42, 44] });
    const owner = await buildCreditUser(server, 3);
    const saved = await api(server).put('/account/play-credentials', { key: account.json }, tokenFor(server, owner));
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, owner) });
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles(join(dir, 'app.apk'));
    await page.getByTestId('chosen-file').waitFor();
    const play = page.getByLabel('Uma acima da do Google Play');
    await soon(() => play.isEnabled(), (v) => expect(v).to.equal(true));
    await play.check();
    await page.getByRole('button', { name: 'Converter para AAB' }).click();
    await page.getByTestId('result-completed').waitFor({ timeout: 90_000 });
    const row = page.getByTestId('play-checklist').locator('[data-code="versionCode"]');
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('ok'));
    expect(await row.textContent()).to.contain('versionCode 45 é maior que o maior já enviado ao Google Play (44)');
    expect(errors).to.deep.equal([]);
    await context.close();
  });
});
