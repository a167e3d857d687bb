/**
 * The conversion page's log console and drop-zone in a real browser: the entries written
 * before the upload's answer ('Arquivo recebido…', 'Conversão adicionada à fila') shown from
 * the stored log, also in a second browser that resumes the conversion; 'Limpar' clearing the
 * stored log too; the drop-zone obeying the upload.maxFileSize setting. Also the admin
 * screens' live channel: a bulk download failure toasts 'Erro ao fazer download', and a
 * real-time auth_error ends the session and goes to /login.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { SOCKET_EVENTS, type ConversionHistoryResponse } from '@aabify/shared';
import { launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from '../helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk } from '../helpers/conversions.js';
import { openPage, sessionOf, shootBoth, startSlowConversionServer, toastWith } from './dashboardHelpers.js';

const APK = 'ag-politedroid.apk';
/** 1.4 MB: above a 1 MB limit. */
const BIG_APK = 'diva.apk';
const MB = 1024 * 1024;
const RECEIVED = 'Arquivo recebido';
const QUEUED = 'Conversão adicionada à fila';

/** Whether the console holds an entry with this text (searched, since the list is virtualised). */
async function expectInConsole(page: Page, text: string): Promise<void> {
  const search = page.getByTestId('log-search');
  await search.fill(text);
  await soon(() => page.getByTestId('log-row').allTextContents(), (rows) => expect(rows.join('\n')).to.contain(text), 15000);
  await search.fill('');
}

describe('dashboard: converter logs, clear and upload limit in a real browser', function () {
  this.timeout(180000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    requireChromium(this);
    requireCorpus(this);
    server = await startSlowConversionServer('admin-logs@aabify.test');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('converter_corpusApk_consoleShowsTheFirstEntries_alsoInASecondBrowser_thenLimparClearsTheStoredLog', async () => {
    const owner = await buildCreditUser(server, 5);
    const session = sessionOf(server, owner);
    const token = tokenFor(server, owner);
    const first = await openPage(browser, { session });
    const { page } = first;
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
    await page.getByTestId('chosen-file').waitFor();
    await page.getByTestId('start-conversion').click();
    await page.getByTestId('status-card').waitFor();
    await expectInConsole(page, RECEIVED);
    await expectInConsole(page, QUEUED);

    // The same conversion, resumed in another browser while it runs: the earlier entries too.
    const history = await api(server).get<ConversionHistoryResponse>('/conversion/history?limit=1', token);
    const conversionId = history.body.conversions[0]!.id;
    expect(history.body.conversions[0]!.status).to.be.oneOf(['queued', 'processing']);
    const second = await openPage(browser, { session });
    await second.page.goto(`${server.url}/converter`);
    await second.page.getByTestId('status-card').waitFor({ timeout: 20000 });
    await expectInConsole(second.page, RECEIVED);
    await expectInConsole(second.page, QUEUED);
    await expectInConsole(second.page, 'teste: etapa');

    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });
    await second.page.getByTestId('result-completed').waitFor({ timeout: 60000 });
    await expectInConsole(page, RECEIVED);
    const before = await api(server).get<{ logs: unknown[] }>(`/conversion/logs/${conversionId}`, token);
    expect(before.body.logs.length).to.be.greaterThan(2);
    // Every stored entry is there (besides the live progress lines, which are not stored).
    await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(Number(v)).to.be.at.least(before.body.logs.length));
    await shootBoth(page, 'converter-logs-complete');

    // 'Limpar': the console and the stored log are emptied.
    await page.getByTestId('log-clear').click();
    await toastWith(page, 'Logs removidos');
    await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(v).to.equal('0'));
    await soon(() => page.getByTestId('log-empty').textContent(), (v) => expect(v).to.equal('Aguardando logs do processo...'));
    await soon(
      () => api(server).get<{ logs: unknown[]; total: number }>(`/conversion/logs/${conversionId}`, token),
      (r) => {
        expect(r.status).to.equal(200);
        expect(r.body.logs).to.deep.equal([]);
      },
    );
    // The history's log modal has nothing either.
    await page.goto(`${server.url}/history`);
    await page.getByRole('button', { name: `Ver logs de ${APK}` }).first().click();
    await soon(() => page.getByRole('dialog').textContent(), (v) => expect(v).to.contain('Sem logs disponíveis'));

    expect(first.errors).to.deep.equal([]);
    expect(second.errors).to.deep.equal([]);
    await second.context.close();
    await first.context.close();
  });

  it('converter_clearFails_toastsTheErrorAndKeepsTheLogs', async () => {
    const owner = await buildCreditUser(server, 5);
    const { page, context } = await openPage(browser, { session: sessionOf(server, owner) });
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
    await page.getByTestId('start-conversion').click();
    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });
    await expectInConsole(page, RECEIVED);
    const count = await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(Number(v)).to.be.greaterThan(2));
    await page.route('**/api/conversion/logs/**', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Falha simulada', code: 'INTERNAL' }) })
        : route.continue(),
    );
    await page.getByTestId('log-clear').click();
    await toastWith(page, 'Erro ao limpar logs');
    await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(v).to.equal(count));
    await context.close();
  });

  it('converter_uploadLimitSetTo1MB_dropZoneShowsItAndRefusesALargerApkWithoutUploading', async () => {
    await server.ctx.settings.set('upload.maxFileSize', MB);
    try {
      const { page, context, errors } = await openPage(browser, { session: sessionOf(server, await buildCreditUser(server, 5)) });
      const uploads: string[] = [];
      page.on('request', (r) => r.method() === 'POST' && /\/api\/conversion\/(convert|upload)/.test(r.url()) && uploads.push(r.url()));
      await page.goto(`${server.url}/converter`);
      await page.getByTestId('ready').waitFor();
      await soon(() => page.getByTestId('dropzone-max-size').textContent(), (v) => expect(v).to.equal('1 MB'));
      await soon(() => page.locator('#dropzone-help').textContent(), (v) =>
        expect(v).to.equal('Um APK, um conjunto de splits (.apks, .xapk, .apkm ou .zip) ou vários APKs do mesmo app, com os arquivos .obb se houver; tamanho máximo 1 MB no total'),
      );

      await page.getByTestId('file-input').setInputFiles(corpusApk(BIG_APK));
      await soon(() => page.getByTestId('file-rejection').textContent(), (v) => expect(v).to.equal('O arquivo excede o limite de 1MB'));
      await soon(() => page.getByTestId('chosen-file').count(), (v) => expect(v).to.equal(0));
      await soon(() => page.getByTestId('start-conversion').isDisabled(), (v) => expect(v).to.equal(true));
      await shootBoth(page, 'converter-upload-limit');
      // A smaller one passes.
      await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
      await soon(() => page.getByTestId('chosen-file').textContent(), (v) => expect(v).to.contain(APK));
      await soon(() => page.getByTestId('file-rejection').count(), (v) => expect(v).to.equal(0));
      expect(uploads).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
      await context.close();
    } finally {
      await server.ctx.settings.unset('upload.maxFileSize');
    }
  });

  it('bulk_downloadFails_toastsErroAoFazerDownload', async () => {
    const admin = await buildAdmin(server);
    const { page, context } = await openPage(browser, { session: sessionOf(server, admin), width: 1400 });
    await page.goto(`${server.url}/admin/bulk-converter`);
    await page.getByTestId('bulk-dropzone').waitFor();
    await page.getByTestId('bulk-input').setInputFiles([corpusApk(APK)]);
    await page.getByTestId('bulk-start').click();
    const item = page.locator(`[data-testid="bulk-item-${APK}"][data-status="completed"]`);
    await item.waitFor({ timeout: 60000 });
    await page.route('**/api/download/generate-download-token/**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Falha simulada', code: 'INTERNAL' }) }),
    );
    await item.getByRole('button', { name: 'Baixar AAB' }).click();
    await toastWith(page, 'Erro ao fazer download');
    await soon(() => page.getByTestId('toast').allInnerTexts(), (v) => expect(v.join('\n')).not.to.contain('Erro no download'));
    await context.close();
  });

  it('admin_realTimeAuthError_clearsTheSessionAndGoesToLogin', async () => {
    const admin = await buildAdmin(server);
    const user = await buildCreditUser(server, 5);
    // An active conversion, so the admin conversions screen opens its live channel.
    const res = await uploadApk(server, tokenFor(server, user), corpusApk(APK));
    expect(res.status).to.equal(201);
    conversionIdOf(res);
    const { page, context } = await openPage(browser, { session: sessionOf(server, admin), width: 1400 });
    await page.goto(`${server.url}/admin/conversions`);
    await page.getByTestId('conversions-table').waitFor();
    const io = server.ctx.conversionEvents.io;
    const adminSockets = async () =>
      (await io.fetchSockets()).filter((s) => (s.data as { auth?: { ok: boolean; user?: { id: string } } }).auth?.user?.id === admin.id);
    await soon(adminSockets, (list) => expect(list.length).to.be.greaterThan(0), 15000);
    for (const s of await adminSockets()) s.emit(SOCKET_EVENTS.authError, { message: 'Token inválido', code: 'TOKEN_INVALID' });
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15000 });
    await soon(() => page.evaluate(() => localStorage.getItem('aabify-token')), (v) => expect(v).to.equal(null));
    await context.close();
  });
});
