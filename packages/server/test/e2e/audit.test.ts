/**
 * Admin › Auditoria and Conta › Atividade da conta in a real browser: an admin filters the trail
 * by action, who, date and address, opens an event's before and after, and exports the filtered
 * set as CSV; a customer reads their own security log, with what an admin did marked as such.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { buildDashboardNow, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, tokenFor } from '../helpers/factories.js';
import type { User } from '../../src/models/index.js';
import { openPage, sessionOf, shootBoth, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15_000;

describe('Admin › Auditoria and Atividade da conta in a real browser', function () {
  this.timeout(180_000);
  let server: TestServer;
  let browser: Browser;
  let admin: User;
  let customer: User;
  let open: OpenPage;
  let page: Page;

  before(async function () {
    requireChromium(this);
    server = await startTestServer({ ROLE: 'web', DASHBOARD_DIR: buildDashboardNow() });
    browser = await launchBrowser();
    admin = await buildAdmin(server, { email: 'auditor-e2e@example.com' });
    customer = await buildCreditUser(server, 3, { email: 'cliente-auditado@example.com' });
    const adminToken = tokenFor(server, admin);
    // What the trail will show: a refused sign-in, a sign-in, credits changed and a plan created by the admin.
    expect((await api(server).post('/auth/login', { email: customer.email, password: 'senha-errada-1' })).status).to.equal(401);
    expect((await api(server).post('/auth/login', { email: customer.email, password: DEFAULT_PASSWORD })).status).to.equal(200);
    expect((await api(server).patch(`/admin/users/${customer.id}/credits`, { credits: 12, operation: 'set' }, adminToken)).status).to.equal(200);
    expect((await api(server).patch(`/admin/users/${customer.id}/change-password`, { newPassword: 'outra-senha-456' }, adminToken)).status).to.equal(200);
    const plan = { name: 'Plano Auditado', description: 'x', type: 'credit', price: 9.9, currency: 'BRL', credits: 5, features: [], isPopular: false, isActive: true };
    expect((await api(server).post('/admin/plans', plan, adminToken)).status).to.equal(201);
  });
  afterEach(async () => {
    await open?.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rowActions = () => page.getByTestId('audit-row').getByTestId('audit-row-action').allTextContents();

  it('auditoria_filterViewAndExport_showsExactlyTheFilteredEvents', async () => {
    open = await openPage(browser, { session: sessionOf(server, admin), width: 1400 });
    page = open.page;
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Auditoria' }).click();
    await page.getByTestId('audit-list').waitFor({ timeout: SHORT });
    await soon(rowActions, (v) => expect(v).to.include.members(['Plano criado', 'Créditos alterados', 'Entrada na conta', 'Tentativa de entrada recusada']));
    expect(await page.title()).to.equal('Auditoria · aabify');
    await shootBoth(page, 'admin-audit');

    // By action: only the credits change, with its before and after.
    await page.getByLabel('Ação', { exact: true }).selectOption('user.credits_changed');
    await soon(rowActions, (v) => expect(v).to.deep.equal(['Créditos alterados']));
    await soon(() => page.getByTestId('audit-row').textContent(), (v) => expect(v).to.contain('auditor-e2e@example.com').and.contain('cliente-auditado@example.com'));
    await page.getByRole('button', { name: 'Ver evento: Créditos alterados' }).click();
    const viewer = page.getByTestId('audit-viewer');
    await viewer.getByTestId('audit-changes').waitFor();
    await soon(() => viewer.getByTestId('audit-changes').locator('tbody tr').allTextContents(), (v) => expect(v).to.deep.equal(['credits312']));
    await soon(() => viewer.getByTestId('audit-viewer-actor').textContent(), (v) => expect(v).to.contain('auditor-e2e@example.com').and.contain('sessão'));
    await shootBoth(page, 'admin-audit-event');
    await viewer.getByRole('button', { name: 'Fechar' }).click();

    // By who and from where, then a day with nothing.
    await page.getByLabel('Ação', { exact: true }).selectOption('');
    await page.getByLabel('Quem', { exact: true }).fill('cliente-auditado');
    await soon(rowActions, (v) => expect(v).to.deep.equal(['Entrada na conta']));
    await page.getByLabel('Quem', { exact: true }).fill('');
    await page.getByLabel('Endereço', { exact: true }).fill('127.0.0');
    await soon(rowActions, (v) => expect(v).to.include('Plano criado'));
    await page.getByLabel('Endereço', { exact: true }).fill('203.0.113.');
    await page.getByTestId('audit-list-empty').waitFor({ timeout: SHORT });
    await page.getByTestId('audit-clear').click();
    const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' });
    await page.getByLabel('De', { exact: true }).fill(tomorrow);
    await page.getByTestId('audit-list-empty').waitFor({ timeout: SHORT });
    await page.getByTestId('audit-clear').click();

    // Export what the filter shows: the plan's creation only.
    await page.getByLabel('Ação', { exact: true }).selectOption('plan.created');
    await soon(rowActions, (v) => expect(v).to.deep.equal(['Plano criado']));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
    expect(download.suggestedFilename()).to.match(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/^Quando \(horário de Brasília\);Ação;Código;Quem;/);
    expect(lines[1]).to.contain(';Plano criado;plan.created;auditor-e2e@example.com;admin;').and.contain('Plano Auditado');
    // The export is itself in the trail.
    await page.getByLabel('Ação', { exact: true }).selectOption('audit.exported');
    await soon(rowActions, (v) => expect(v).to.deep.equal(['Auditoria exportada (CSV)']));
    expect(open.errors).to.deep.equal([]);
  });

  it('atividadeDaConta_customer_seesTheirSecurityEventsAndWhatAnAdminDid', async () => {
    // The admin's password change ended the customer's older sessions: a session of now.
    await customer.reload();
    open = await openPage(browser, { session: sessionOf(server, customer) });
    page = open.page;
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('link', { name: 'Atividade da conta', exact: true }).click();
    const list = page.getByTestId('activity-list');
    await list.waitFor({ timeout: SHORT });
    const rows = page.getByTestId('activity-row');
    await soon(() => rows.allTextContents(), (v) => {
      expect(v).to.have.length(3);
      expect(v[0]).to.contain('Senha definida por administrador').and.contain('por um administrador');
      expect(v[1]).to.contain('Entrada na conta').and.contain('127.0.0.1');
      expect(v[2]).to.contain('Tentativa de entrada recusada');
    });
    // Nothing of the admin's own trail (the plan, the credits) reaches the customer.
    expect((await rows.allTextContents()).join()).to.not.contain('Plano').and.not.contain('Créditos');
    await shootBoth(page, 'account-activity');
    expect(open.errors).to.deep.equal([]);
  });
});
