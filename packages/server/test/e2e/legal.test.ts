/**
 * Termos de Uso and Política de Privacidade in a real browser: readable signed out, sign-up
 * refused without the acceptance (the pt-BR message beside the checkbox) and accepted with it,
 * and a new version published by an administrator asking a signed-in customer again before the
 * panel goes on; "Meus dados" exporting the account's data as a zip, and deleting the account.
 */
import { expect } from 'chai';
import { LEGAL_MESSAGES, PRIVACY_MESSAGES } from '@aabify/shared';
import { soon } from '../helpers/browser.js';
import { Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from '../helpers/conversions.js';
import { api } from '../helpers/http.js';
import { buildConversion, buildPlan, buildPurchase } from '../helpers/adminFactories.js';
import { generateApiToken } from '../../src/accounts/tokens.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, tokenFor, uniqueEmail } from '../helpers/factories.js';
import { openPage, sessionOf, shootBoth, useDashboardSuite, waitForPath } from './dashboardHelpers.js';

describe('dashboard: terms of use and privacy policy in a real browser', function () {
  this.timeout(120_000);
  const ui = useDashboardSuite();


  it('legalPages_areReadableSignedOut_andThePrivacyPolicyNamesTheDpo', async () => {
    await ui.server.ctx.settings.set('legal.dpoEmail', 'dpo@empresa.com.br');
    const { page, context, errors } = await openPage(ui.browser);
    await page.goto(`${ui.server.url}/termos`);
    await page.getByRole('heading', { name: 'Termos de Uso' }).waitFor();
    await soon(() => page.getByTestId('legal-terms').textContent(), (v) => expect(v).to.contain('Estes Termos de Uso regem o uso do aabify'));
    expect(new URL(page.url()).pathname).to.equal('/termos');
    await page.goto(`${ui.server.url}/privacidade`);
    await page.getByRole('heading', { name: 'Política de Privacidade' }).waitFor();
    await soon(() => page.getByTestId('legal-dpo').textContent(), (v) => expect(v).to.contain('dpo@empresa.com.br'));
    await shootBoth(page, 'privacy-policy');
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('signUp_withoutAcceptingIsRefused_thenANewVersionAsksAgain', async () => {
    const { page, context, errors } = await openPage(ui.browser);
    await page.goto(`${ui.server.url}/register`);
    const email = uniqueEmail('aceite');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill('segredo-forte-1');
    await page.getByLabel('Confirmar senha').fill('segredo-forte-1');
    const terms = page.getByRole('link', { name: 'Termos de Uso' }).first();
    expect(await terms.getAttribute('href')).to.equal('/termos');
    expect(await page.getByRole('link', { name: 'Política de Privacidade' }).first().getAttribute('href')).to.equal('/privacidade');
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await soon(() => page.locator('#field-acceptTerms-error').textContent(), (v) => expect(v).to.equal(LEGAL_MESSAGES.acceptRequired));
    expect(await ui.server.ctx.models.User.count({ where: { email } })).to.equal(0);

    await page.getByRole('checkbox', { name: /Li e aceito/ }).check();
    await page.getByRole('button', { name: 'Criar Conta' }).click();
    await page.getByText('Conta criada com sucesso!').waitFor();
    await waitForPath(page, '/plans');
    const user = await ui.server.ctx.models.User.findOne({ where: { email } });
    const current = await ui.server.ctx.legal.currentVersions();
    expect(user).to.include({ termsAcceptedVersion: current.terms, privacyAcceptedVersion: current.privacy });

    // An administrator publishes new terms in Admin › Termos e privacidade.
    const admin = await buildAdmin(ui.server);
    const adminPage = await openPage(ui.browser, { session: sessionOf(ui.server, admin) });
    await adminPage.page.goto(`${ui.server.url}/admin/legal`);
    await soon(() => adminPage.page.getByTestId('legal-current-version').textContent(), (v) => expect(v).to.equal(String(current.terms)));
    await adminPage.page.getByLabel(/Texto/).fill('Novos termos: a partir de hoje, os relatórios de conversão ficam guardados por 30 dias.');
    await adminPage.page.getByTestId('legal-publish').click();
    await soon(() => adminPage.page.getByTestId('legal-current-version').textContent(), (v) => expect(v).to.equal(String(current.terms + 1)));
    await soon(() => adminPage.page.getByTestId('legal-versions').locator('li').count(), (v) => expect(v).to.equal(current.terms + 1));
    await adminPage.context.close();

    // The customer's next screen is the acceptance, not the panel.
    await page.goto(`${ui.server.url}/dashboard`);
    const gate = page.getByTestId('legal-acceptance');
    await gate.waitFor();
    await page.getByRole('button', { name: 'Aceitar e continuar' }).click();
    await page.getByText(LEGAL_MESSAGES.acceptToContinue).waitFor();
    await shootBoth(page, 'legal-acceptance');
    await page.getByRole('checkbox', { name: /Li e aceito/ }).check();
    await page.getByRole('button', { name: 'Aceitar e continuar' }).click();
    await gate.waitFor({ state: 'detached' });
    await waitForPath(page, '/plans');
    await user!.reload();
    expect(user!.termsAcceptedVersion).to.equal(current.terms + 1);
    expect(await ui.server.ctx.models.LegalAcceptance.count({ where: { userId: user!.id } })).to.equal(2);
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('customerAlreadySignedIn_whenTermsChange_isAskedOnTheFirstRefusedCall', async () => {
    const customer = await buildCreditUser(ui.server, 5);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    await page.goto(`${ui.server.url}/dashboard`);
    await page.getByRole('link', { name: 'Nova Conversão' }).first().waitFor();
    const admin = await buildAdmin(ui.server);
    const published = await api(ui.server).post('/admin/legal/privacy', { body: 'Política nova: o endereço IP de cada acesso fica guardado por seis meses.' }, tokenFor(ui.server, admin));
    expect(published.status).to.equal(201);
    await page.goto(`${ui.server.url}/history`);
    await page.getByTestId('legal-acceptance').waitFor();
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('meusDados_exportsAZipWhoseJsonHoldsThePurchasesAndConversions', async function () {
    requireTool(this, 'unzip', 'apt-get install unzip');
    const customer = await buildCreditUser(ui.server, 2);
    const conversion = await buildConversion(ui.server, customer, { status: 'completed', progress: 100, completedAt: new Date(), fileName: 'loja do joão.apk' });
    const purchase = await buildPurchase(ui.server, customer, await buildPlan(ui.server), { status: 'approved' });

    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    await page.goto(`${ui.server.url}/account/data`);
    await page.getByRole('button', { name: 'Exportar meus dados' }).click();
    await page.getByText(PRIVACY_MESSAGES.exportRequested).waitFor();
    // The page reads the list again while the export is in preparation, until it is ready.
    await page.locator('[data-testid="data-export-row"][data-status="ready"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Exportar meus dados' }).isEnabled()).to.equal(true);
    await shootBoth(page, 'my-data-export');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('data-export-download').click()]);
    expect(download.suggestedFilename()).to.match(/^aabify-meus-dados-\d{4}-\d{2}-\d{2}\.zip$/);
    const dir = await mkdtemp(join(tmpdir(), 'aabify-my-data-'));
    try {
      const file = join(dir, download.suggestedFilename());
      await download.saveAs(file);
      const read = (name: string) => JSON.parse(execFileSync('unzip', ['-p', file, name], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
      expect(read('compras.json').map((p) => p.id)).to.deep.equal([purchase.id]);
      expect(read('conversoes.json').map((c) => c.fileName)).to.deep.equal([conversion.fileName]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('meusDados_deletingTheAccount_leavesNoFileKeyOrToken_andKeepsTheFiscalRecord', async () => {
    const customer = await buildCreditUser(ui.server, 2);
    const conversion = await buildConversion(ui.server, customer, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `aab/${conversion.id}.aab`;
    await ui.server.ctx.storage.write(aabKey, Readable.from(Buffer.from('PK-aab-de-teste')));
    await conversion.update({ aabKey, aabSize: 15 });
    const secret = generateApiToken();
    await ui.server.ctx.models.ApiToken.create({ userId: customer.id, name: 'CI', tokenHash: secret.hash, prefix: secret.prefix, scopes: ['read'] });
    const purchase = await buildPurchase(ui.server, customer, await buildPlan(ui.server), { status: 'approved' });

    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    await page.goto(`${ui.server.url}/account/data`);
    await soon(() => page.getByTestId('fiscal-record-note').textContent(), (v) => expect(v).to.equal(PRIVACY_MESSAGES.fiscalRecordKept));
    await page.getByLabel('Sua senha').fill('senha-errada-1');
    await page.getByRole('button', { name: 'Excluir minha conta' }).click();
    await page.getByText(PRIVACY_MESSAGES.wrongPassword).waitFor();
    await shootBoth(page, 'my-data');
    await page.getByLabel('Sua senha').fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Excluir minha conta' }).click();
    await waitForPath(page, '/login');

    const { models, storage } = ui.server.ctx;
    expect(await models.Conversion.count({ where: { userId: customer.id } })).to.equal(0);
    expect(await storage.size(aabKey)).to.equal(undefined);
    expect(await models.ApiToken.count({ where: { userId: customer.id } })).to.equal(0);
    expect(await models.UserKeystore.count({ where: { userId: customer.id } })).to.equal(0);
    expect(await models.Session.count({ where: { userId: customer.id } })).to.equal(0);
    expect(await models.Purchase.count({ where: { id: purchase.id } })).to.equal(1);
    expect(errors).to.deep.equal([]);
    await context.close();
  });
});
