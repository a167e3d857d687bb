/**
 * The user dashboard in a real browser against a real server: first-run setup, every guard
 * redirect, the validation messages, buying a credit plan with the sandbox PIX, converting a
 * corpus APK while the page follows it live, downloading the AAB, the history, the password
 * change, and the theme — with screenshots of each screen in both themes.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { ACCOUNT_MESSAGES, type ApiPlan, type AuthResponse, type ConversionHistoryResponse, type CreatePixResponse } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon, screenshotPath } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildCreditUser, buildSubscriber, buildUser, uniqueEmail } from '../helpers/factories.js';
import { SLOW_ENGINE, corpusApk, requireCorpus } from '../helpers/conversions.js';
import { buildZip, tinyApkEntries } from '../../../converter/test/helpers/zipBuilder.js';
import { chooseTheme, fillBillingForm, openPage, readTimeline, recordConverterTimeline, sessionOf, shootBoth, waitForPath, type OpenPage } from './dashboardHelpers.js';

const ADMIN = { email: 'admin@aabify.test', password: 'admin-senha-123' };
const USER = { email: uniqueEmail('comprador'), password: 'cliente-senha-1' };
const APK = 'ag-politedroid.apk';

async function toastTexts(page: Page): Promise<string[]> {
  return page.getByTestId('toast').allInnerTexts();
}

describe('dashboard: user flows in a real browser', function () {
  this.timeout(180000);
  let server: TestServer;
  let browser: Browser;
  let adminToken = '';
  let user: OpenPage | undefined;

  before(async function () {
    requireChromium(this);
    requireCorpus(this);
    server = await startTestServer(
      { DASHBOARD_DIR: ensureDashboardBuilt() },
      { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 700 } }, claimRetryMs: 200 } },
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await user?.context.close();
    await browser?.close();
    await server?.stop();
  });

  it('setup_firstRun_everyPathShowsSetupValidatesThenCreatesTheAdmin', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${server.url}/converter`);
    await page.getByRole('heading', { name: 'Configuração Inicial' }).waitFor();
    await soon(() => page.getByLabel('Nome').inputValue(), (v) => expect(v).to.equal('Administrador'));
    await shootBoth(page, 'setup');

    await page.getByRole('button', { name: 'Criar Administrador' }).click();
    await page.getByText('Email é obrigatório').waitFor();
    await page.getByText('Senha é obrigatória').waitFor();
    await soon(() => toastTexts(page), (v) => expect(v).to.include('Por favor, corrija os erros no formulário'));

    await page.getByLabel('E-mail').fill('não-é-email');
    await page.getByLabel('Senha', { exact: true }).fill('123');
    await page.getByLabel('Confirmar senha').fill('124');
    await page.getByRole('button', { name: 'Criar Administrador' }).click();
    await page.getByText('Email inválido').waitFor();
    await page.getByText('Senha deve ter no mínimo 6 caracteres').waitFor();
    await page.getByText('As senhas não coincidem').waitFor();

    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Senha', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Confirmar senha').fill(ADMIN.password);
    const adminChunk = page.waitForResponse((r) => /\/assets\/AdminRoutes-[A-Z0-9]+\.js$/.test(r.url()), { timeout: 15000 });
    await page.getByRole('button', { name: 'Criar Administrador' }).click();
    await page.getByText('Administrador criado com sucesso! Redirecionando...').waitFor();
    await waitForPath(page, '/admin');
    await adminChunk;
    await page.getByTestId('admin-home').waitFor();
    await soon(() => page.getByTestId('topbar-role').textContent(), (v) => expect(v).to.equal('Administrador'));
    expect(errors).to.deep.equal([]);
    await context.close();

    const login = await api(server).post<AuthResponse>('/auth/login', ADMIN);
    expect(login.status).to.equal(200);
    adminToken = login.body.token;
  });

  it('guards_signedOut_everyPathGoesToLogin', async () => {
    const { page, context } = await openPage(browser);
    for (const p of ['/', '/dashboard', '/converter', '/history', '/plans', '/payment-status', '/admin', '/admin/users', '/qualquer-coisa']) {
      await page.goto(`${server.url}${p}`);
      await waitForPath(page, '/login');
    }
    await shootBoth(page, 'login');
    await context.close();
  });

  it('login_and_register_validation_specMessages', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('Email é obrigatório').waitFor();
    await page.getByText('Senha é obrigatória').waitFor();
    await page.getByLabel('E-mail').fill('ninguem@example.com');
    await page.getByLabel('Senha').fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    // The server's refusal sits under the field it concerns, not in a toast over the top bar.
    await soon(() => page.locator('#field-password-error').textContent(), (v) => expect(v).to.equal('Email ou senha incorretos.'));
    expect(await page.getByTestId('toast').count()).to.equal(0);

    await page.getByRole('link', { name: 'Cadastre-se' }).click();
    await waitForPath(page, '/register');
    await soon(() => page.getByText('Mínimo de 6 caracteres').count(), (v) => expect(v).to.equal(1));
    await page.getByLabel('E-mail').fill(USER.email);
    await page.getByLabel('Senha', { exact: true }).fill('12345');
    await page.getByLabel('Confirmar senha').fill('54321');
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await page.getByText('A senha deve ter pelo menos 6 caracteres').waitFor();
    await page.getByText('As senhas não coincidem').waitFor();
    await page.getByLabel('Confirmar senha').fill('');
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await soon(() => page.locator('#field-confirmPassword-error').textContent(), (v) => expect(v).to.equal('As senhas não coincidem'));
    await soon(() => page.getByLabel('Nome (opcional)').count(), (v) => expect(v).to.equal(1));

    // A taken address: said under the field, with the ways back in beside it.
    const existing = await buildUser(server);
    await page.getByLabel('E-mail').fill(existing.email);
    await page.getByLabel('Senha', { exact: true }).fill('outra-senha-1');
    await page.getByLabel('Confirmar senha').fill('outra-senha-1');
    await page.getByRole('checkbox', { name: /Li e aceito/ }).check();
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await soon(() => page.locator('#field-email-error').textContent(), (v) => expect(v).to.equal(ACCOUNT_MESSAGES.registerEmailTaken));
    const taken = page.getByTestId('register-email-taken');
    await soon(() => taken.getByRole('link', { name: 'recuperar a senha' }).getAttribute('href'), (v) => expect(v).to.equal('/forgot-password'));
    await shootBoth(page, 'register-errors');
    await taken.getByRole('link', { name: 'Entrar' }).click();
    await waitForPath(page, '/login');
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('register_newUser_landsOnPlansAndEveryPlanGuardRedirects', async () => {
    user = await openPage(browser);
    const { page } = user;
    await page.goto(`${server.url}/register`);
    await page.getByLabel('Nome (opcional)').fill('Ana');
    await page.getByLabel('E-mail').fill(USER.email);
    await page.getByLabel('Senha', { exact: true }).fill(USER.password);
    await page.getByLabel('Confirmar senha').fill(USER.password);
    await page.getByRole('checkbox', { name: /Li e aceito/ }).check();
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await page.getByText('Conta criada com sucesso!').waitFor();
    // The top bar shows the e-mail; the name given at registration stands beside it.
    await soon(() => page.getByTestId('topbar-email').textContent(), (v) => expect(v).to.equal(USER.email));
    expect(await page.getByTestId('topbar-name').textContent()).to.equal('Ana');
    await waitForPath(page, '/plans');
    const reason = page.getByTestId('plans-reason');
    await soon(() => reason.getAttribute('data-from'), (v) => expect(v).to.equal('/dashboard'));
    await soon(() => reason.getAttribute('data-status'), (v) => expect(v).to.equal('no_plan'));
    await soon(() => page.getByTestId('topbar-role').textContent(), (v) => expect(v).to.equal('Usuário'));

    for (const [from, origin] of [['/converter', '/converter'], ['/history', '/dashboard'], ['/admin', '/dashboard'], ['/login', '/dashboard'], ['/register', '/dashboard'], ['/', '/dashboard']] as const) {
      await page.goto(`${server.url}${from}`);
      await waitForPath(page, '/plans');
      await soon(() => page.getByTestId('plans-reason').getAttribute('data-from'), (v) => expect(v, from).to.equal(origin));
    }
    await page.goto(`${server.url}/payment-status`);
    await page.getByRole('heading', { name: 'Link inválido' }).waitFor();
    await shootBoth(page, 'payment-status-invalid');
    expect(user.errors).to.deep.equal([]);
  });

  it('guards_planStates_noCreditsExpiredAdminAndActive', async () => {
    const cases = [
      { u: await buildCreditUser(server, 0), path: '/plans', status: 'no_credits' },
      { u: await buildSubscriber(server, -2), path: '/plans', status: 'expired' },
      { u: await buildUser(server), path: '/plans', status: 'no_plan' },
    ];
    for (const c of cases) {
      const { page, context } = await openPage(browser, { session: sessionOf(server, c.u) });
      await page.goto(`${server.url}/converter`);
      await waitForPath(page, c.path);
      await soon(() => page.getByTestId('plans-reason').getAttribute('data-status'), (v) => expect(v).to.equal(c.status));
      await context.close();
    }
    const active = await openPage(browser, { session: sessionOf(server, await buildCreditUser(server, 3)) });
    await active.page.goto(`${server.url}/plans`);
    await waitForPath(active.page, '/dashboard');
    await soon(() => active.page.getByTestId('credit-warning').textContent(), (v) => expect(v).to.equal('Poucos créditos'));
    await active.page.goto(`${server.url}/admin/settings`);
    await waitForPath(active.page, '/dashboard');
    await active.page.goto(`${server.url}/history`);
    await waitForPath(active.page, '/history');
    await active.context.close();

    const admin = await openPage(browser, { session: sessionOf(server, (await server.ctx.models.User.findOne({ where: { email: ADMIN.email } }))!) });
    for (const [from, to] of [['/', '/admin'], ['/dashboard', '/admin'], ['/login', '/admin'], ['/nada', '/admin'], ['/history', '/history'], ['/plans', '/plans'], ['/converter', '/converter']] as const) {
      await admin.page.goto(`${server.url}${from}`);
      await waitForPath(admin.page, to);
    }
    await admin.context.close();
  });

  it('purchase_creditPlan_sandboxPixApproved_successThenDashboardShowsCredits', async () => {
    const created = await api(server).post<{ plan: ApiPlan }>(
      '/plans',
      { name: 'Pacote 10 conversões', description: 'Para quem publica sempre', type: 'credit', price: 19.9, credits: 10, features: ['10 conversões', 'Suporte por email'], isPopular: true },
      adminToken,
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await api(server).post('/plans', { name: 'Assinatura mensal', type: 'subscription', price: 49.9, subscriptionDetails: { duration: 1 } }, adminToken);

    const { page } = user!;
    await page.goto(`${server.url}/plans`);
    await page.getByTestId('plan-offer').first().waitFor();
    await shootBoth(page, 'plans');
    await page.locator('label[for="plan-type-subscription"]').click();
    await page.locator('[data-plan-name="Assinatura mensal"]').waitFor();
    await soon(() => page.locator('[data-plan-name="Pacote 10 conversões"]').count(), (v) => expect(v).to.equal(0));
    await page.locator('label[for="plan-type-credit"]').click();
    // A first purchase asks for the billing details, then goes on by itself once they are saved.
    await page.getByRole('button', { name: 'Pagar com PIX: Pacote 10 conversões' }).click();
    await fillBillingForm(page);
    const createPix = page.waitForResponse((r) => r.url().includes('/api/payments/create-pix/'));
    await page.getByTestId('billing-submit').click();
    const pix = (await (await createPix).json()) as CreatePixResponse;
    const modal = page.getByTestId('pix-modal');
    await modal.waitFor();
    await soon(() => page.getByTestId('pix-code').inputValue(), (v) => expect(v).to.equal(pix.payment.pixCopyPaste));
    await soon(() => page.getByTestId('pix-countdown').textContent(), (v) => expect(v).to.match(/^[0-5]\d:[0-5]\d$/));
    await page.getByTestId('pix-copy').click();
    await page.getByText('Código copiado!').waitFor();
    await soon(() => page.evaluate(() => navigator.clipboard.readText()), (v) => expect(v).to.equal(pix.payment.pixCopyPaste));
    await page.getByText('Copiar código PIX').waitFor({ timeout: 4000 });
    await soon(() => page.evaluate(() => localStorage.getItem('aabify-pending-payment')), (v) => expect(v).to.contain(pix.payment.id));
    await shootBoth(page, 'pix-modal');

    const approve = await api(server).post(`/admin/payments/${pix.payment.id}/approve`, undefined, adminToken);
    expect(approve.status, JSON.stringify(approve.body)).to.be.within(200, 299);
    await page.getByTestId('payment-success').waitFor({ timeout: 60000 });
    await soon(() => page.evaluate(() => localStorage.getItem('aabify-pending-payment')), (v) => expect(v).to.equal(null));
    await shootBoth(page, 'payment-success');
    await page.getByRole('link', { name: 'Ir para o Painel' }).click();
    await waitForPath(page, '/dashboard');
    await soon(() => page.getByTestId('plan-credits').textContent(), (v) => expect(v).to.equal('10'));
    await soon(() => page.getByTestId('greeting').textContent(), (v) => expect(v).to.equal(`Boas-vindas, Ana (${USER.email})!`));
    await soon(() => page.title(), (v) => expect(v).to.equal(`Boas-vindas, Ana (${USER.email})! · aabify`));
    await soon(() => page.getByTestId('plan-status-tile').textContent(), (v) => expect(v).to.contain('Plano Ativo'));
    await page.getByTestId('count-total').filter({ hasText: '0' }).waitFor();
    await shootBoth(page, 'dashboard');
    expect(user!.errors).to.deep.equal([]);
  });

  it('converter_dropZone_specValidationMessages', async () => {
    const { page } = user!;
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await soon(() => page.getByTestId('ready').textContent(), (v) => expect(v).to.equal('Pronto para conversão'));
    await page.getByTestId('file-input').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('oi') });
    await soon(() => page.getByTestId('file-rejection').textContent(), (v) => expect(v).to.equal('Cada arquivo deve ser .apk, .apks, .xapk, .apkm, .zip (conjunto de splits), .obb ou .aab (para gerar o APK).'));
    const drop = async (files: Array<{ name: string; size: number }>) =>
      page.getByTestId('dropzone').evaluate((el, list) => {
        const dt = new DataTransfer();
        for (const f of list) dt.items.add(new File([new Uint8Array(f.size)], f.name, { type: 'application/vnd.android.package-archive' }));
        el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, files);
    await drop(Array.from({ length: 21 }, (_, i) => ({ name: `s${i}.apk`, size: 10 })));
    await soon(() => page.getByTestId('file-rejection').textContent(), (v) => expect(v).to.equal('No máximo 20 arquivos por conversão.'));
    await drop([{ name: 'main.1.app.obb', size: 10 }]);
    await soon(() => page.getByTestId('file-rejection').textContent(), (v) => expect(v).to.equal('Envie o APK (ou o conjunto de APKs) junto com os arquivos .obb.'));
    // A split set as separate files with its OBB: all listed, each removable.
    await drop([{ name: 'base.apk', size: 10 }, { name: 'split_config.x86_64.apk', size: 10 }, { name: 'main.1.app.obb', size: 10 }]);
    await soon(() => page.getByTestId('chosen-file').count(), (v) => expect(v).to.equal(3));
    await page.getByRole('button', { name: 'Remover main.1.app.obb' }).click();
    await soon(() => page.getByTestId('chosen-file').count(), (v) => expect(v).to.equal(2));
    await drop([{ name: 'grande.apk', size: 100 * 1024 * 1024 + 1 }]);
    await soon(() => page.getByTestId('file-rejection').textContent(), (v) => expect(v).to.equal('O arquivo excede o limite de 100MB'));
    await drop([{ name: 'ok.APK', size: 1024 }]);
    await soon(() => page.getByTestId('file-rejection').count(), (v) => expect(v).to.equal(0));
    await soon(() => page.getByTestId('chosen-file').textContent(), (v) => expect(v).to.contain('ok.APK').and.contain('1 KB'));
    await page.getByRole('button', { name: 'Remover ok.APK' }).click();
    // A user without an upload key is asked once per session, not on every visit to the converter.
    const keystoreCalls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/account/keystore') && keystoreCalls.push(r.url()));
    await page.getByRole('link', { name: 'Histórico', exact: true }).click();
    await waitForPath(page, '/history');
    await page.getByRole('link', { name: 'Converter', exact: true }).click();
    await page.getByTestId('ready').waitFor();
    await soon(() => page.getByTestId('sign-hint').textContent(), (v) => expect(v).to.contain('cadastre antes sua chave de upload'));
    expect(keystoreCalls).to.deep.equal([]);
    await soon(() => page.getByTestId('chosen-file').count(), (v) => expect(v).to.equal(0));
    await shootBoth(page, 'converter-idle');
  });

  it('converter_corpusApk_followedLiveThenDownloadedBytesEqualTheServerFile', async () => {
    const { page, errors } = user!;
    await recordConverterTimeline(page);
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
    await page.getByTestId('chosen-file').waitFor();
    await page.getByTestId('start-conversion').click();
    await page.getByTestId('status-card').waitFor();
    await page.locator('[data-testid="status-card"][data-status="processing"]').waitFor({ timeout: 30000 });
    await page.getByTestId('log-row').first().waitFor();
    await shootBoth(page, 'converter-processing');
    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });

    const t = await readTimeline(page);
    expect(t.trackerStates.some((s) => s.includes('validation:active') || s.includes('processing:active')), t.trackerStates.join(' | ')).to.equal(true);
    expect(t.trackerStates.at(-1)).to.equal('upload:completed,validation:completed,processing:completed,finalisation:completed');
    expect(t.sawQueueCard || t.sawProcessingCard).to.equal(true);
    expect(new Set(t.logCounts).size, `log counts ${t.logCounts.join(',')}`).to.be.greaterThan(2);
    expect(new Set(t.percents).size, `percents ${t.percents.join(',')}`).to.be.greaterThan(2);
    expect(t.indicator).to.include('Conectado');
    expect(t.sawUpdatedFlash).to.equal(true);
    await soon(() => page.getByTestId('result-filename').textContent(), (v) => expect(v).to.equal(APK.replace('.apk', '.aab')));
    await soon(() => page.getByTestId('link-expiry').textContent(), (v) => expect(v).to.contain('1 hora'));

    // The console's filters, counts and search.
    const all = Number(await page.getByTestId('log-count-all').textContent());
    expect(all).to.be.greaterThan(2);
    await page.getByTestId('log-search').fill('zzz-nada');
    await page.getByText('Nenhum log encontrado com os filtros aplicados').waitFor();
    await page.getByTestId('log-search').fill('');
    await page.getByTestId('log-filter-success').click();
    await soon(
      async () => ({ success: Number(await page.getByTestId('log-count-success').textContent()), rows: await page.getByTestId('log-row').count() }),
      (v) => expect(v.rows).to.equal(Math.min(v.success, 5)),
    );
    await page.getByTestId('log-filter-all').click();
    await soon(() => page.getByTestId('log-row').first().evaluate((e) => e.getBoundingClientRect().height), (v) => expect(v).to.equal(64));
    await soon(() => page.getByTestId('log-viewport').evaluate((e) => e.getBoundingClientRect().height), (v) => expect(v).to.equal(256));
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('conversion-logs-v1'))) ?? '{}')).to.have.property('v', 1);
    await shootBoth(page, 'converter-completed');

    const history = await api(server).get<ConversionHistoryResponse>('/conversion/history?limit=1', (await userToken(page)));
    const conversionId = history.body.conversions[0]!.id;
    // The converter opened the conversion's own page, which survives a reload.
    await waitForPath(page, `/conversions/${conversionId}`);
    await soon(() => page.title(), (v) => expect(v).to.equal(`Conversão ${conversionId.slice(-8)} · aabify`));
    await page.reload();
    await page.getByTestId('result-completed').waitFor();
    await soon(() => page.getByTestId('result-filename').textContent(), (v) => expect(v).to.equal(APK.replace('.apk', '.aab')));
    // The pre-publication checklist sits above the download button, each problem with what to do.
    const checklist = page.getByTestId('play-checklist');
    await soon(() => page.getByTestId('play-check').count(), (v) => expect(v).to.be.at.least(4));
    await soon(() => checklist.locator('[data-code="signature"]').getAttribute('data-status'), (v) => expect(v).to.equal('warning'));
    await soon(() => checklist.locator('[data-code="signature"]').textContent(), (v) => expect(v).to.contain('O AAB não está assinado').and.contain('Chave de upload'));
    const above = await page.evaluate(() => {
      const list = document.querySelector('[data-testid="play-checklist"]')!.getBoundingClientRect();
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Baixar AAB'))!.getBoundingClientRect();
      return list.bottom <= button.top;
    });
    expect(above).to.equal(true);
    await expectInConsolePresent(page);
    const downloadEvent = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar AAB' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).to.equal(APK.replace('.apk', '.aab'));
    const saved = await readFile((await download.path())!);
    const serverFile = await fetch(`${server.url}/api/conversion/download/${conversionId}`, { headers: { authorization: `Bearer ${await userToken(page)}` } });
    expect(serverFile.status).to.equal(200);
    const expected = Buffer.from(await serverFile.arrayBuffer());
    expect(saved.length).to.equal(expected.length);
    expect(saved.equals(expected)).to.equal(true);
    await page.getByRole('button', { name: 'Download Concluído' }).waitFor();
    await page.getByText(`${APK.replace('.apk', '.aab')} baixado com sucesso!`).waitFor();
    await page.getByRole('button', { name: 'Baixar AAB' }).waitFor({ timeout: 5000 });
    expect(errors).to.deep.equal([]);
  });

  it('history_afterConversion_listsItWithLogsAndDownload', async () => {
    const { page, errors } = user!;
    await page.getByRole('link', { name: 'Ver Histórico' }).click().catch(() => page.goto(`${server.url}/history`));
    await waitForPath(page, '/history');
    const row = page.getByTestId('history-row').first();
    await row.waitFor();
    await soon(() => row.textContent(), (v) => expect(v).to.contain(APK).and.contain('Concluído'));
    await page.getByLabel('Status').selectOption('failed');
    await page.getByTestId('history-empty').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Buscar').fill('politedroid');
    await page.getByTestId('history-row').first().waitFor();
    await page.getByRole('button', { name: `Ver logs de ${APK}` }).click();
    await page.getByTestId('history-logs').waitFor();
    await shootBoth(page, 'history-logs');
    await page.keyboard.press('Escape');
    await shootBoth(page, 'history');
    // Each row opens the conversion's page.
    await page.getByTestId('history-open').first().click();
    await page.getByTestId('conversion-page').waitFor();
    await page.getByTestId('result-completed').waitFor();
    expect(errors).to.deep.equal([]);
  });

  it('converter_apkWithObb_resultCardListsTheModulesWithTheirSizes', async () => {
    const { page, errors } = user!;
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles([
      { name: 'tiny.apk', mimeType: 'application/vnd.android.package-archive', buffer: buildZip(tinyApkEntries()) },
      { name: 'main.1.com.example.tiny.obb', mimeType: 'application/octet-stream', buffer: Buffer.alloc(40_000, 3) },
    ]);
    await soon(() => page.getByTestId('chosen-file').count(), (v) => expect(v).to.equal(2));
    await page.getByTestId('start-conversion').click();
    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });
    await soon(() => page.getByTestId('result-filename').textContent(), (v) => expect(v).to.equal('tiny.aab'));
    await page.getByTestId('bundle-modules').waitFor();
    await soon(() => page.getByTestId('bundle-module-base').textContent(), (v) => expect(v).to.contain('Base').and.contain('Na instalação'));
    await soon(() => page.getByTestId('bundle-module-obb_main').textContent(), (v) => expect(v).to.contain('Pacote de assets').and.contain('Na instalação').and.match(/\d+(,\d+)? KB/));
    await shootBoth(page, 'converter-modules');
    expect(errors).to.deep.equal([]);
  });

  it('changePassword_modal_fieldErrorsThenSuccess', async () => {
    const { page, errors } = user!;
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('button', { name: 'Alterar Senha' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
    await dialog.getByText('Senha atual é obrigatória').waitFor();
    await dialog.getByText('Nova senha deve ter pelo menos 6 caracteres').waitFor();
    await dialog.getByText('As senhas não coincidem').waitFor();
    await dialog.getByLabel('Senha atual').fill(USER.password);
    await dialog.getByLabel('Nova senha', { exact: true }).fill(USER.password);
    await dialog.getByLabel('Confirmar nova senha').fill(USER.password);
    await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
    await dialog.getByText('A nova senha deve ser diferente da senha atual').waitFor();
    await dialog.getByLabel('Senha atual').fill('senha-errada-1');
    await dialog.getByLabel('Nova senha', { exact: true }).fill('nova-senha-123');
    await dialog.getByLabel('Confirmar nova senha').fill('nova-senha-123');
    await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
    await dialog.locator('#field-currentPassword-error').filter({ hasText: 'Senha atual incorreta' }).waitFor();
    await shootBoth(page, 'change-password-errors');
    await dialog.getByLabel('Senha atual').fill(USER.password);
    await dialog.getByRole('button', { name: 'Alterar Senha' }).click();
    await page.getByText('Senha alterada com sucesso.').waitFor();
    USER.password = 'nova-senha-123';
    expect(errors).to.deep.equal([]);
  });

  it('theme_dark_persistsAcrossReloadsAndSignOutClearsTheSession', async () => {
    const { page } = user!;
    await page.goto(`${server.url}/dashboard`);
    await chooseTheme(page, 'Escuro');
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await page.reload();
    await page.getByTestId('plan-card').waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await page.goto(`${server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));

    const tokenBefore = await page.evaluate(() => localStorage.getItem('aabify-token'));
    expect((await api(server).get('/auth/me', tokenBefore!)).status).to.equal(200);
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('button', { name: 'Sair', exact: true }).click();
    await waitForPath(page, '/login');
    const stored = await page.evaluate(() => [localStorage.getItem('aabify-token'), localStorage.getItem('aabify-user'), localStorage.getItem('conversion-logs-v1'), localStorage.getItem('aabify-last-user')]);
    expect(stored).to.deep.equal([null, null, null, null]);
    // Signing out ended the session on the server too: a copy of its token opens nothing.
    await soon(async () => (await api(server).get('/auth/me', tokenBefore!)).status, (status) => expect(status).to.equal(401));
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await page.getByLabel('E-mail').fill(USER.email);
    await page.getByLabel('Senha').fill(USER.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('Login realizado com sucesso!').waitFor();
    await waitForPath(page, '/dashboard');
  });

  it('signOutEverywhere_endsTheOtherBrowsersSessionToo', async () => {
    const account = await buildCreditUser(server, 1);
    const phone = await openPage(browser, { session: sessionOf(server, account), width: 390 });
    const laptop = await openPage(browser, { session: sessionOf(server, account) });
    try {
      await laptop.page.goto(`${server.url}/dashboard`);
      await phone.page.goto(`${server.url}/dashboard`);
      const phoneToken = (await phone.page.evaluate(() => localStorage.getItem('aabify-token'))) ?? '';
      expect((await api(server).get('/auth/me', phoneToken)).status).to.equal(200);
      await laptop.page.getByRole('button', { name: 'Menu da conta' }).click();
      await laptop.page.getByRole('button', { name: 'Sair de todos os dispositivos' }).click();
      await laptop.page.getByText('Você saiu da sua conta em todos os dispositivos').waitFor();
      await waitForPath(laptop.page, '/login');
      expect((await api(server).get('/auth/me', phoneToken)).status).to.equal(401);
      // The other browser finds out at its next request.
      await phone.page.reload();
      await waitForPath(phone.page, '/login');
      expect(laptop.errors.filter((e) => !e.includes('401'))).to.deep.equal([]);
    } finally {
      await phone.context.close();
      await laptop.context.close();
    }
  });

  it('layout_360pxWide_noHorizontalScrollOnAnyScreen', async () => {
    const { page, context } = await openPage(browser, { width: 360, session: sessionOf(server, (await server.ctx.models.User.findOne({ where: { email: USER.email } }))!) });
    for (const p of ['/dashboard', '/converter', '/history', '/login']) {
      await page.goto(`${server.url}${p}`);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, p).to.be.at.most(0);
      await page.screenshot({ path: await screenshotPath(`dashboard-360${p.replace('/', '-')}`), fullPage: true, animations: 'disabled' });
    }
    await context.close();
  });

  it('converterLanding_paintedBeforeScripts_onlyWithAStoredSession_invalidSessionEndsOnLogin', async () => {
    const u = await buildSubscriber(server, 30);
    const heading = (page: Page) => page.getByRole('heading', { name: 'Converter APK em AAB' });
    // Scripts held back: what the HTML and the stylesheet paint by themselves.
    for (const session of [sessionOf(server, u), undefined]) {
      const { page, context } = await openPage(browser, { session, width: 412 });
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${server.url}/converter`);
      if (session) {
        await heading(page).waitFor({ state: 'visible' });
        expect(await page.getByText('Carregando…').isVisible()).to.equal(false);
      } else {
        await page.getByText('Carregando…').waitFor({ state: 'visible' });
        expect(await heading(page).isVisible()).to.equal(false);
      }
      await context.close();
    }
    // A stored user with an active plan but a token the server refuses: the painted screen goes,
    // the visit ends on the login screen.
    const { page, context } = await openPage(browser, { session: { ...sessionOf(server, u), token: 'token-invalido' } });
    await page.goto(`${server.url}/converter`);
    await waitForPath(page, '/login');
    await page.getByRole('button', { name: 'Entrar' }).waitFor({ state: 'visible' });
    expect(await heading(page).count()).to.equal(0);
    await context.close();
  });

  it('session_401_clearsTheSessionAndGoesToLogin', async () => {
    const u = await buildCreditUser(server, 2);
    const { page, context } = await openPage(browser, { session: { ...sessionOf(server, u), token: 'token-invalido' } });
    await page.goto(`${server.url}/dashboard`);
    await waitForPath(page, '/login');
    await soon(() => page.evaluate(() => localStorage.getItem('aabify-token')), (v) => expect(v).to.equal(null));
    await context.close();
  });
});

/** The log console came back from the stored log after the reload. */
async function expectInConsolePresent(page: Page): Promise<void> {
  await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(Number(v)).to.be.greaterThan(0));
}

async function userToken(page: Page): Promise<string> {
  const t = await page.evaluate(() => localStorage.getItem('aabify-token'));
  if (!t) throw new Error('no session token in the page');
  return t;
}

