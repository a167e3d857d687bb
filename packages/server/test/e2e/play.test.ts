/**
 * Google Play in a real browser (Debian's Chromium) against a real server, with Google's token
 * endpoint and Android Publisher API played by the stand-in on loopback: the key registered on
 * Conta › Google Play ('Testar conexão' included), a completed conversion published to
 * `internal` as a draft from its page, the publication in the page's history, and in Admin ›
 * Conversões.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { PLAY_MESSAGES } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, makeServiceAccount, type TestServiceAccount } from '../../../converter/test/helpers/googlePlayStandIn.js';
import { buildDashboardNow, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildCreditUser, tokenFor } from '../helpers/factories.js';
import { conversionIdOf, uploadBytes, waitForStatus } from '../helpers/conversions.js';
import { openPage, sessionOf, shootBoth, waitForPath } from './dashboardHelpers.js';

const PKG = 'com.aabify.navegador';

describe('dashboard: publishing to Google Play in a real browser', function () {
  this.timeout(180_000);
  let server: TestServer;
  let google: GooglePlayStandIn;
  let browser: Browser;
  let account: TestServiceAccount;
  let dir: string;

  before(async function () {
    requireChromium(this);
    google = await new GooglePlayStandIn().start();
    account = makeServiceAccount('painel');
    dir = await mkdtemp(join(tmpdir(), 'aabify-e2e-play-'));
    server = await startTestServer({ ...google.env, DASHBOARD_DIR: buildDashboardNow() });
    // First-run setup done: the dashboard goes past 'Configuração Inicial'.
    await buildAdmin(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await google?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('play_withoutAKey_theButtonIsDisabledAndSaysWhatIsMissingBeforeAnyForm', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const conversionId = conversionIdOf(await uploadBytes(server, token, buildZip(tinyApkEntries({ versionCode: 2, packageName: PKG })), { fileName: 'sem-chave.apk' }));
    await waitForStatus(server, token, conversionId, ['completed']);
    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, user) });
    try {
      await page.goto(`${server.url}/conversions/${conversionId}?publicar=1`);
      const reasons = page.getByTestId('publish-blockers');
      await reasons.waitFor();
      expect(await reasons.textContent()).to.contain('cadastre a chave da conta de serviço em Conta › Google Play').and.contain('não foi assinado');
      expect(await reasons.getByRole('link', { name: 'Conta › Google Play' }).getAttribute('href')).to.equal('/account/google-play');
      expect(await reasons.getByRole('link', { name: 'Conta › Chave de upload' }).getAttribute('href')).to.equal('/account/keystore');
      expect(await page.getByTestId('publish-open').isDisabled()).to.equal(true);
      expect(await page.getByTestId('publish-modal').count()).to.equal(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('play_registerKeyTestPublishDraftToInternal_seenInTheConversionsHistoryAndAdmin', async () => {
    google.addServiceAccount(account);
    google.addApp(PKG);
    google.anyBundle = { versionCode: 5, packageName: PKG };
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const conversionId = conversionIdOf(await uploadBytes(server, token, buildZip(tinyApkEntries({ versionCode: 5, packageName: PKG })), { fileName: 'navegador.apk' }));
    await waitForStatus(server, token, conversionId, ['completed']);
    const keyPath = join(dir, 'conta-de-servico.json');
    await writeFile(keyPath, account.json);

    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, user) });
    try {
      // Conta › Google Play, beside 'Chave de upload'.
      await page.goto(`${server.url}/history`);
      await page.getByTestId('history-publish').first().waitFor();
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('link', { name: 'Google Play', exact: true }).click();
      await waitForPath(page, '/account/google-play');
      await page.getByTestId('play-credentials-empty').waitFor();
      await page.getByLabel('Arquivo da chave').setInputFiles(keyPath);
      await page.getByTestId('play-credentials-submit').click();
      await page.getByTestId('play-credentials-stored').waitFor();
      expect(await page.getByTestId('play-client-email').textContent()).to.equal(account.clientEmail);
      expect(await page.getByTestId('play-project').textContent()).to.equal(account.projectId);
      expect(await page.content()).to.not.contain('PRIVATE KEY');

      // Testar conexão.
      await page.getByLabel('Nome do pacote do app').fill(PKG);
      await page.getByTestId('play-test-submit').click();
      await soon(() => page.getByTestId('play-test-result').textContent(), (v) => expect(v).to.equal(PLAY_MESSAGES.testOk(PKG)));
      await shootBoth(page, 'play-credentials');

      // From the history's 'Publicar' to the conversion page: this AAB is unsigned and its
      // checklist has a blocker (no targetSdk), so the reasons show beside a secondary button
      // instead of the form; the customer may still open it.
      await page.goto(`${server.url}/history`);
      await page.getByTestId('history-publish').first().click();
      await waitForPath(page, `/conversions/${conversionId}`);
      const reasons = page.getByTestId('publish-blockers');
      await reasons.waitFor();
      expect(await reasons.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-testid')))).to.deep.equal(['publish-blocker-unsigned', 'publish-blocker-checklist']);
      expect(await page.getByTestId('publish-modal').count()).to.equal(0);
      const open = page.getByTestId('publish-open');
      expect(await open.getAttribute('class')).to.contain('btn-outline-secondary');
      await open.click();
      const modal = page.getByTestId('publish-modal');
      await modal.waitFor();
      // Track and release status in words, no API codes repeated beside them.
      const trackOptions = await modal.getByLabel('Faixa').locator('option').allTextContents();
      expect(trackOptions.slice(0, 4)).to.deep.equal(['Teste interno', 'Teste fechado (alpha)', 'Teste aberto (beta)', 'Produção']);
      expect(await modal.getByLabel('Status da versão').locator('option').allTextContents()).to.deep.equal(['Rascunho', 'Disponível para todos', 'Lançamento gradual']);
      expect(await modal.getByLabel('Faixa').inputValue()).to.equal('internal');
      expect(await modal.getByLabel('Status da versão').inputValue()).to.equal('draft');
      await modal.getByTestId('publish-notes-0').fill('Primeira versão pelo aabify');
      await modal.getByTestId('publish-submit').click();

      // The publication history shows it published, with Play's versionCode.
      const row = page.getByTestId('publication-row').first();
      await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('completed'), 30_000);
      expect(await row.getByTestId('publication-version-code').textContent()).to.equal('5');
      expect(await row.textContent()).to.contain('Teste interno').and.contain('Rascunho').and.contain('Publicado');
      await shootBoth(page, 'play-publication-history');
      expect(google.commits).to.have.length(1);
      expect(google.commits[0]!.tracks.internal!.releases[0]).to.deep.include({ status: 'draft', releaseNotes: [{ language: 'pt-BR', text: 'Primeira versão pelo aabify' }] });
      const dl = await fetch(`${server.url}/api/conversion/download/${conversionId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(google.uploads[0]!.sha256).to.equal(createHash('sha256').update(Buffer.from(await dl.arrayBuffer())).digest('hex'));
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }

    // Admin › Conversões lists it.
    const admin = await buildAdmin(server, { name: 'Suporte' });
    const adminPage = await openPage(browser, { session: sessionOf(server, admin) });
    try {
      await adminPage.page.goto(`${server.url}/admin/conversions`);
      const list = adminPage.page.getByTestId('admin-publications');
      await soon(() => list.textContent(), (v) => expect(v).to.contain(PKG).and.contain('navegador.apk').and.contain('Publicado'));
    } finally {
      await adminPage.context.close();
    }
  });
});
