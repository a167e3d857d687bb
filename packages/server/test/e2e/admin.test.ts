/**
 * The admin screens in a real browser: every screen
 * rendered and screenshotted; a plan created and bought, then seen in analytics and charts;
 * a user's credits edited, promoted and demoted; a setting changed and its effect seen; three
 * corpus APKs bulk-converted live and their results downloaded.
 */
import { expect } from 'chai';
import { readFile, stat } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_MESSAGES, type CreatePixResponse } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon, screenshotPath } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from '../helpers/factories.js';
import { corpusApk, requireCorpus } from '../helpers/conversions.js';
import type { User } from '../../src/models/index.js';
import { openPage, sessionOf, toastWith, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15000;

describe('admin screens in a real browser', function () {
  this.timeout(180000);
  let server: TestServer;
  let browser: Browser;
  let admin: User;
  let open: OpenPage;
  let page: Page;

  before(async function () {
    requireChromium(this);
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    browser = await launchBrowser();
    admin = await buildAdmin(server, { email: 'admin-e2e@example.com' });
  });
  beforeEach(async () => {
    open = await openPage(browser, { session: sessionOf(server, admin), width: 1400 });
    page = open.page;
  });
  afterEach(async () => {
    await open?.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const shot = async (name: string) => page.screenshot({ path: await screenshotPath(`admin-${name}`), fullPage: true, animations: 'disabled' });
  const toastOf = (text: string) => toastWith(page, text);

  it('screens_everyAdminScreen_rendersWithSidebarAndIsScreenshotted', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('admin-sidebar').waitFor();
    const links = await page.getByTestId('admin-sidebar').getByRole('link').allTextContents();
    expect(links).to.deep.equal(['Painel', 'Fila e Sistema', 'Gerenciar Usuários', 'Compras', 'Conversões', 'Gerenciar Planos', 'Conversão em Massa', 'Administradores', 'E-mails', 'Auditoria', 'Termos e privacidade', 'Configurações']);
    await page.getByTestId('stat-users-total').waitFor();
    // The tile says what it counts.
    expect(await page.getByTestId('stat-users-total').textContent()).to.contain('Contas de cliente, ativas e inativas');
    await page.getByTestId('chart-conversions').locator('svg').first().waitFor();
    await page.getByTestId('chart-revenue').locator('svg').first().waitFor();
    // The 30 days' dates stand at equal distances under the bars.
    const dayTicks = await soon(
      () => page.getByTestId('chart-conversions').locator('.recharts-xAxis-tick-labels text').evaluateAll((ts) => ts.map((t) => Number(t.getAttribute('x')))),
      (xs) => expect(xs.length).to.be.within(3, 6),
    );
    const gaps = dayTicks.slice(1).map((x, i) => Math.round(x - dayTicks[i]!));
    expect(Math.max(...gaps) - Math.min(...gaps), `gaps ${gaps.join(', ')}`).to.be.at.most(2);
    await soon(() => page.getByTestId('system-uptime').textContent(), (v) => expect(v).to.match(/^\d+d \d+h \d+m/));
    await shot('dashboard');
    const screens: Array<[string, string, string]> = [
      ['Gerenciar Usuários', 'users-table', 'users'],
      ['Gerenciar Planos', 'plans-table', 'plans'],
      ['Conversões', 'conversions-table', 'conversions'],
      ['Conversão em Massa', 'bulk-dropzone', 'bulk-converter'],
      ['Administradores', 'admins-table', 'admins'],
      ['Configurações', 'setting-upload-maxFileSize', 'settings'],
    ];
    for (const [link, testId, name] of screens) {
      await page.getByTestId('admin-sidebar').getByRole('link', { name: link }).click();
      await page.getByTestId(testId).waitFor({ timeout: SHORT });
      await shot(name);
    }
    await page.goto(`${server.url}/admin/system`);
    await page.getByTestId('queue-card').waitFor();
    await page.getByTestId('system-card').waitFor();
    // Nothing waits: 'Limpar fila' is disabled, and no average time is claimed without conversions.
    await soon(() => page.getByTestId('queue-clear').isDisabled(), (v) => expect(v).to.equal(true));
    await soon(() => page.getByTestId('queue-average').textContent(), (v) => expect(v).to.contain('sem conversões concluídas ainda'));
    await soon(() => page.getByTestId('system-cpu').textContent(), (v) => expect(v).to.match(/^\d+(,\d)?% \(\d+ núcleos?; carga \d+,\d\d \/ \d+,\d\d \/ \d+,\d\d\)$/));
    await soon(() => page.title(), (v) => expect(v).to.equal('Fila e Sistema · aabify'));
    await shot('queue-system');
    expect(open.errors).to.deep.equal([]);
  });

  it('plans_adminCreatesPlanUserBuysIt_analyticsAndChartsShowTheSale', async () => {
    await page.goto(`${server.url}/admin/plans`);
    await page.getByTestId('plans-table').waitFor();
    await page.getByTestId('new-plan').click();
    const form = page.getByTestId('plan-form');
    // On a short window the button is below the fold of the name: the failed save brings the
    // first invalid field back into view, focused.
    await page.setViewportSize({ width: 1400, height: 480 });
    await form.getByTestId('plan-form-submit').scrollIntoViewIfNeeded();
    expect(await form.getByLabel('Nome').evaluate((el) => el.getBoundingClientRect().bottom < 0)).to.equal(true);
    await form.getByTestId('plan-form-submit').click();
    await soon(() => page.evaluate(() => document.activeElement?.id), (v) => expect(v).to.equal('plan-name'));
    const nameBox = (await form.getByLabel('Nome').boundingBox())!;
    expect(nameBox.y).to.be.at.least(0);
    expect(nameBox.y + nameBox.height).to.be.at.most(480);
    await page.setViewportSize({ width: 1400, height: 900 });
    await form.getByText('Campo obrigatório').waitFor();
    await soon(() => form.locator('#plan-name ~ .invalid-feedback').textContent(), (v) => expect(v).to.equal('Nome é obrigatório'));
    await form.getByLabel('Nome').fill('Plano E2E');
    await form.getByLabel('Descrição').fill('Quinze conversões');
    // The BRL field: a minus sign cannot be typed; '29,90' typed key by key is R$ 29,90, not 2.990.
    const price = form.getByLabel('Preço');
    await price.pressSequentially('-5');
    await soon(() => price.inputValue(), (v) => expect(v).to.equal('5'));
    await form.getByLabel('Créditos').fill('0');
    await form.getByTestId('plan-form-submit').click();
    await form.getByText('Quantidade de créditos deve ser maior que zero').waitFor();
    await price.fill('');
    await price.pressSequentially('29,90');
    await soon(() => price.inputValue(), (v) => expect(v).to.equal('29,90'));
    await form.getByLabel('Créditos').fill('15');
    await soon(() => form.getByTestId('plan-price-preview').textContent(), (v) => expect(v).to.equal('Os clientes pagarão R$ 29,90 (R$ 1,99 por conversão)'));
    await form.getByLabel('Recursos (um por linha)').fill('Suporte por email\n\nConversão rápida');
    await form.getByTestId('plan-form-submit').click();
    await toastOf('Plano criado com sucesso!');
    const row = page.getByTestId('plan-row-Plano E2E');
    await row.waitFor();
    await soon(() => row.textContent(), (v) => expect(v).to.contain('R$ 29,90').and.contain('15 créditos'));
    const plan = await server.ctx.models.Plan.findOne({ where: { name: 'Plano E2E' } });
    expect(plan?.features).to.deep.equal(['Suporte por email', 'Conversão rápida']);
    expect(plan?.priceCents).to.equal(2990);
    // A new plan goes last in the display order.
    const maxOrder = await server.ctx.models.Plan.max<number, NonNullable<typeof plan>>('displayOrder');
    expect(plan?.displayOrder).to.equal(maxOrder);

    // A user buys it with the sandbox PIX.
    const buyer = await buildCreditUser(server, 0, { email: 'comprador-e2e@example.com' });
    const buyerToken = tokenFor(server, buyer);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan!.id}`, undefined, buyerToken);
    expect(pix.status, JSON.stringify(pix.body)).to.be.oneOf([200, 201]);
    const approved = await api(server).post(`/payments/simulate-approval/${pix.body.payment.id}`, undefined, buyerToken);
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);

    await page.getByRole('button', { name: 'Atualizar lista' }).click();
    await page.waitForFunction(() => {
      const cell = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-testid="plan-row-Plano E2E"] [data-testid="plan-sales"]');
      return cell?.textContent === '1';
    });
    await soon(() => row.getByTestId('plan-revenue').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
    await page.getByRole('button', { name: 'Desempenho' }).click();
    const analytics = page.getByTestId('plan-analytics');
    await analytics.getByTestId('analytics-recent').getByText('comprador-e2e@example.com').waitFor({ timeout: SHORT });
    await soon(() => analytics.getByTestId('analytics-recent').textContent(), (v) => expect(v).to.contain('Plano E2E').and.contain('Aprovado').and.contain('R$ 29,90'));
    await soon(() => analytics.getByTestId('analytics-period-revenue-value').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
    await soon(() => analytics.getByTestId('analytics-average-ticket-value').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
    await analytics.getByTestId('chart-plan-revenue').locator('.recharts-bar-rectangle').first().waitFor();
    for (const tab of ['Esta Semana', 'Este Trimestre', 'Este Ano', 'Este Mês']) {
      await analytics.getByRole('tab', { name: tab }).or(analytics.getByRole('button', { name: tab })).first().click();
      await analytics.getByTestId('analytics-top').getByText('Plano E2E').waitFor({ timeout: SHORT });
    }
    await shot('plans-analytics');

    // Duplicate, toggle, CSV export.
    await row.getByRole('button', { name: 'Mais ações para Plano E2E' }).click();
    await page.getByRole('button', { name: 'Duplicar' }).click();
    await page.getByTestId('plan-row-Plano E2E (Cópia)').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar' }).click();
    const csv = await download;
    expect(csv.suggestedFilename()).to.match(/^planos-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile((await csv.path())!, 'utf8');
    expect(text).to.contain('Nome;Tipo;Preço;Status;Popular;Vendas;Receita').and.contain('Plano E2E;Créditos;R$ 29,90;Ativo;Não;1;R$ 29,90');

    await page.goto(`${server.url}/admin`);
    await page.getByTestId('stat-revenue-total').waitFor();
    await soon(() => page.getByTestId('stat-revenue-total-value').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
    await page.getByTestId('chart-revenue').locator('.recharts-line-dot').last().waitFor();
    await shot('dashboard-with-sale');
    expect(open.errors).to.deep.equal([]);
  });

  it('plans_reorder_dragAndArrowsPersistTheDisplayOrder', async () => {
    const token = tokenFor(server, admin);
    for (const [name, displayOrder] of [['Ordem A', 41], ['Ordem B', 42], ['Ordem C', 43]] as const) {
      const created = await api(server).post('/admin/plans', { name, type: 'credit', price: 10, credits: 5, displayOrder }, token);
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    const storedOrder = async () =>
      (await server.ctx.models.Plan.findAll({ where: { name: ['Ordem A', 'Ordem B', 'Ordem C'] }, order: [['displayOrder', 'ASC']] })).map((p) => `${p.name}:${p.displayOrder}`);
    const shownOrder = () => page.locator('[data-testid^="plan-row-Ordem"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.replace('plan-row-', '')));

    await page.goto(`${server.url}/admin/plans`);
    await page.getByLabel('Buscar planos').fill('Ordem');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await soon(shownOrder, (v) => expect(v).to.deep.equal(['Ordem A', 'Ordem B', 'Ordem C']));

    // Dragging C onto A puts C first; the three keep the values 41–43 between them.
    await page.getByTestId('plan-row-Ordem C').dragTo(page.getByTestId('plan-row-Ordem A'));
    await toastOf('Ordem dos planos atualizada com sucesso!');
    await soon(shownOrder, (v) => expect(v).to.deep.equal(['Ordem C', 'Ordem A', 'Ordem B']));
    await soon(storedOrder, (v) => expect(v).to.deep.equal(['Ordem C:41', 'Ordem A:42', 'Ordem B:43']));
    await shot('plans-reordered');

    // The arrows do the same from the keyboard or a click.
    expect(await page.getByRole('button', { name: 'Mover Ordem C para cima' }).isDisabled()).to.equal(true);
    await page.getByRole('button', { name: 'Mover Ordem B para cima' }).click();
    await soon(storedOrder, (v) => expect(v).to.deep.equal(['Ordem C:41', 'Ordem B:42', 'Ordem A:43']));
    await soon(shownOrder, (v) => expect(v).to.deep.equal(['Ordem C', 'Ordem B', 'Ordem A']));

    // Sorted by anything else, the rows cannot be moved.
    await page.getByRole('button', { name: 'Filtros' }).click();
    await page.getByLabel('Ordenar por').selectOption('name');
    await soon(shownOrder, (v) => expect(v).to.deep.equal(['Ordem A', 'Ordem B', 'Ordem C']));
    await soon(() => page.getByRole('button', { name: 'Mover Ordem B para cima' }).isDisabled(), (v) => expect(v).to.equal(true));
    expect(await page.getByTestId('plan-row-Ordem B').getAttribute('draggable')).to.equal('false');
    expect(open.errors).to.deep.equal([]);
  });

  it('plans_compareSelected_performanceSideBySideForEachPeriod', async () => {
    await page.goto(`${server.url}/admin/plans`);
    await page.getByTestId('plan-row-Plano E2E').waitFor();
    await page.getByLabel('Selecionar Plano E2E', { exact: true }).check();
    await page.getByLabel('Selecionar Ordem A', { exact: true }).check();
    await page.getByRole('button', { name: 'Comparar desempenho' }).click();
    const sold = page.getByTestId('comparison-row-Plano E2E');
    const unsold = page.getByTestId('comparison-row-Ordem A');
    await sold.waitFor({ timeout: SHORT });
    await soon(() => page.locator('[data-testid^="comparison-row-"]').count(), (v) => expect(v).to.equal(2));
    for (const tab of ['Este Mês', 'Este Ano']) {
      await page.getByTestId('plan-comparison').getByRole('button', { name: tab }).click();
      await soon(() => page.getByTestId('plan-comparison').getByRole('button', { name: tab }).getAttribute('aria-pressed'), (v) => expect(v).to.equal('true'));
      await soon(() => sold.getByTestId('comparison-period-revenue').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
      await soon(() => sold.getByTestId('comparison-period-sales').textContent(), (v) => expect(v).to.equal('1'));
      await soon(() => unsold.getByTestId('comparison-period-sales').textContent(), (v) => expect(v).to.equal('0'));
    }
    await soon(() => sold.getByTestId('comparison-revenue').textContent(), (v) => expect(v).to.equal('R$ 29,90'));
    await soon(() => unsold.getByTestId('comparison-revenue').textContent(), (v) => expect(v).to.equal('R$ 0,00'));
    // The best plan is listed first.
    await soon(() => page.locator('[data-testid^="comparison-row-"]').first().getAttribute('data-testid'), (v) => expect(v).to.equal('comparison-row-Plano E2E'));
    await shot('plans-comparison');
    expect(open.errors).to.deep.equal([]);
  });

  it('plans_priceTypedWithComma_savedAsTypedAndATenfoldChangeAsksFirst', async () => {
    await page.goto(`${server.url}/admin/plans`);
    const row = page.getByTestId('plan-row-Plano E2E');
    await row.waitFor();
    await row.getByRole('button', { name: 'Editar' }).click();
    const form = page.getByTestId('plan-form');
    const price = form.getByLabel('Preço');
    await soon(() => price.inputValue(), (v) => expect(v).to.equal('29,90'));
    await price.fill('');
    await price.pressSequentially('19,90');
    await soon(() => form.getByTestId('plan-price-preview').textContent(), (v) => expect(v).to.contain('Os clientes pagarão R$ 19,90'));
    await form.getByTestId('plan-form-submit').click();
    await toastOf('Plano atualizado com sucesso!');
    await soon(() => row.textContent(), (v) => expect(v).to.contain('R$ 19,90').and.not.contain('R$ 1.990,00'));
    expect((await server.ctx.models.Plan.findOne({ where: { name: 'Plano E2E' } }))?.priceCents).to.equal(1990);

    // More than 10× the current price: a confirmation first; cancelling keeps the price.
    await row.getByRole('button', { name: 'Editar' }).click();
    await price.fill('');
    await price.pressSequentially('1990');
    await soon(() => price.inputValue(), (v) => expect(v).to.equal('1.990'));
    await form.getByTestId('plan-form-submit').click();
    await soon(() => page.getByTestId('price-change-warning').textContent(), (v) => expect(v).to.equal('O novo preço (R$ 1.990,00) é mais de 10 vezes diferente do atual (R$ 19,90). Confirma?'));
    await shot('plans-price-confirmation');
    await page.getByRole('button', { name: 'Cancelar' }).last().click();
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await soon(() => row.textContent(), (v) => expect(v).to.contain('R$ 19,90'));
    expect((await server.ctx.models.Plan.findOne({ where: { name: 'Plano E2E' } }))?.priceCents).to.equal(1990);
    expect(open.errors).to.deep.equal([]);
  });

  it('users_adminEditsCreditsThenPromotesAndDemotes', async () => {
    const user = await buildCreditUser(server, 5, { email: 'cliente-e2e@example.com' });
    await page.goto(`${server.url}/admin/users`);
    await page.getByLabel('Buscar').fill('cliente-e2e');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    const row = page.getByTestId('user-row-cliente-e2e@example.com');
    await row.waitFor();
    await soon(() => row.getByTestId('user-credits').textContent(), (v) => expect(v).to.equal('5 créditos'));

    await row.getByRole('button', { name: 'Editar' }).click();
    const form = page.getByTestId('user-form');
    await form.getByTestId('user-form-submit').click();
    await toastOf('Nenhuma alteração detectada');
    await form.getByLabel('Créditos').fill('42');
    await form.getByTestId('user-form-submit').click();
    await toastOf('Usuário atualizado com sucesso!');
    await row.getByText('42 créditos').waitFor();
    await user.reload();
    expect(user.credits).to.equal(42);

    await row.getByRole('button', { name: 'Mais ações para cliente-e2e@example.com' }).click();
    await page.getByRole('button', { name: 'Gerenciar créditos' }).click();
    await page.getByLabel('Operação').selectOption('add');
    await page.getByLabel('Créditos', { exact: true }).fill('8');
    await page.getByTestId('credits-save').click();
    await toastOf('Créditos atualizados com sucesso!');
    await row.getByText('50 créditos').waitFor();
    await shot('users-edited');

    // The row's menu floats above the table: its last item is the topmost element at its own
    // centre (a menu clipped by the table's scroll area would be hidden under it).
    await row.getByRole('button', { name: 'Mais ações para cliente-e2e@example.com' }).click();
    const lastItem = page.getByRole('button', { name: 'Excluir', exact: true });
    await lastItem.waitFor();
    await soon(
      () =>
        lastItem.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { onTop: top !== null && el.contains(top), inView: r.top >= 0 && r.bottom <= window.innerHeight, tableClips: el.closest('.table-responsive') !== null && getComputedStyle(el.closest('.dropdown-menu')!).position !== 'fixed' };
        }),
      (v) => expect(v).to.deep.equal({ onTop: true, inView: true, tableClips: false }),
    );
    await shot('users-menu-open');
    await page.getByRole('button', { name: 'Promover a administrador' }).click();
    await toastOf('Usuário promovido a administrador!');
    await row.waitFor({ state: 'detached' });
    await user.reload();
    expect(user.role).to.equal('admin');

    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Administradores' }).click();
    const adminRow = page.getByTestId('admin-row-cliente-e2e@example.com');
    await adminRow.waitFor();
    await soon(() => page.getByTestId('admin-row-admin-e2e@example.com').getByRole('button', { name: 'Rebaixar' }).isDisabled(), (v) => expect(v).to.equal(true));
    await shot('admins');
    await adminRow.getByRole('button', { name: 'Rebaixar' }).click();
    await page.getByTestId('confirm-button').click();
    await toastOf('Administrador rebaixado a usuário!');
    await adminRow.waitFor({ state: 'detached' });
    await user.reload();
    expect(user.role).to.equal('user');

    await page.getByTestId('promote-form').getByLabel('E-mail do usuário').fill('cliente-e2e@example.com');
    await page.getByTestId('promote-form').getByRole('button', { name: 'Promover' }).click();
    await adminRow.waitFor();
    expect(open.errors).to.deep.equal([]);
  });

  it('settings_lowerUploadLimit_bulkUploadRefusesALargerApk', async function () {
    requireCorpus(this);
    await page.goto(`${server.url}/admin/settings`);
    const card = page.getByTestId('setting-upload-maxFileSize');
    await card.waitFor();
    await soon(() => card.getByTestId('setting-upload-maxFileSize-current').textContent(), (v) => expect(v).to.equal('100 MB (104.857.600 bytes)'));
    const input = card.getByLabel('Novo valor: Tamanho máximo do APK enviado');
    await input.fill('abc');
    await card.getByTestId('setting-upload-maxFileSize-modified').waitFor();
    await card.getByTestId('setting-upload-maxFileSize-save').click();
    await soon(() => card.getByTestId('setting-upload-maxFileSize-error').textContent(), (v) => expect(v).to.equal('Valor deve ser um número válido'));
    await input.fill('1000');
    await card.getByTestId('setting-upload-maxFileSize-save').click();
    await soon(() => card.getByTestId('setting-upload-maxFileSize-error').textContent(), (v) => expect(v).to.equal('Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite'));
    await input.fill('');
    await card.getByTestId('setting-upload-maxFileSize-save').click();
    await soon(() => card.getByTestId('setting-upload-maxFileSize-error').textContent(), (v) => expect(v).to.equal('Valor não pode ser vazio'));
    await card.getByRole('button', { name: 'Cancelar' }).click();
    await soon(() => card.getByTestId('setting-upload-maxFileSize-modified').count(), (v) => expect(v).to.equal(0));
    await input.fill('1048576');
    await card.getByTestId('setting-upload-maxFileSize-save').click();
    await toastOf('Configuração atualizada com sucesso!');
    await card.getByText('1 MB (1.048.576 bytes)').waitFor();
    await soon(() => page.getByTestId('setting-payments-mercadopago-webhookSecret').getByTestId('webhook-hint').textContent(), (v) => expect(v).to.contain('/api/payments/webhook'));
    await shot('settings-saved');

    try {
      const big = corpusApk('expense-tracker.apk');
      expect((await stat(big)).size).to.be.greaterThan(1048576);
      await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Conversão em Massa' }).click();
      await page.getByTestId('bulk-input').setInputFiles([big, corpusApk('jx-small.apk')]);
      await page.getByTestId('bulk-start').click();
      await page.locator('[data-testid="bulk-notice"][data-variant="danger"]', { hasText: 'expense-tracker.apk: O arquivo excede o limite de 1MB' }).waitFor({ timeout: SHORT });
      await page.getByTestId('bulk-item-jx-small.apk').waitFor();
      await soon(() => page.getByTestId('bulk-item-expense-tracker.apk').count(), (v) => expect(v).to.equal(0));
      await shot('bulk-limit');
    } finally {
      await server.ctx.settings.set('upload.maxFileSize', 104857600);
    }
    expect(open.errors).to.deep.equal([]);
  });

  it('bulk_threeCorpusApks_followedLiveThenResultsAndLogsDownloaded', async function () {
    requireCorpus(this);
    const names = ['npm-helloactivity.apk', 'ag-politedroid.apk', 'npm-appium-settings-2015.apk'];
    await page.goto(`${server.url}/admin/bulk-converter`);
    // No file: the start button waits, and says why beside it.
    await page.getByTestId('bulk-dropzone').waitFor();
    expect(await page.getByTestId('bulk-start').isDisabled()).to.equal(true);
    expect(await page.getByTestId('bulk-start-hint').textContent()).to.equal('Selecione pelo menos um arquivo APK');
    // Eleven files: the first ten stay, and the page says which one was left out, under the
    // drop zone rather than in a toast over it.
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `app${i}.apk`, mimeType: 'application/vnd.android.package-archive', buffer: Buffer.from('PK') }));
    await page.getByTestId('bulk-input').setInputFiles(eleven);
    await soon(() => page.getByTestId('bulk-files').locator('.list-group-item').count(), (v) => expect(v).to.equal(10));
    expect(await page.getByTestId('bulk-notice').textContent()).to.equal(ADMIN_MESSAGES.dropTooMany(10, ['app10.apk']));
    expect(await page.getByTestId('bulk-start').isDisabled()).to.equal(false);
    const zone = (await page.getByTestId('bulk-dropzone').boundingBox())!;
    for (const box of await page.getByTestId('toast').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }))) {
      const overlaps = box.x < zone.x + zone.width && zone.x < box.x + box.width && box.y < zone.y + zone.height && zone.y < box.y + box.height;
      expect(overlaps, 'a toast covers the drop zone').to.equal(false);
    }
    await shot('bulk-eleven');
    await page.getByRole('button', { name: 'Limpar todos' }).click();
    await page.getByTestId('bulk-input').setInputFiles(names.map(corpusApk));
    await soon(() => page.getByTestId('bulk-files').locator('.list-group-item').count(), (v) => expect(v).to.equal(3));
    await soon(() => page.getByTestId('bulk-total').textContent(), (v) => expect(v).to.match(/^3 arquivos · total \d/));
    await shot('bulk-selected');
    await page.getByTestId('bulk-start').click();
    for (const n of names) await page.getByTestId(`bulk-item-${n}`).waitFor({ timeout: SHORT });
    for (const n of names) {
      await page.locator(`[data-testid="bulk-item-${n}"][data-status="completed"]`).waitFor({ timeout: 120000 });
    }
    await soon(() => page.getByTestId('bulk-count-completed-value').textContent(), (v) => expect(v).to.equal('3'));
    await soon(() => page.getByTestId('bulk-count-failed-value').textContent(), (v) => expect(v).to.equal('0'));
    await shot('bulk-done');
    // However fast a conversion ran, its logs are never announced as 'Ver logs (0)', and opening them shows its lines.
    for (const n of names) {
      const toggle = page.getByTestId(`bulk-item-${n}`).getByTestId('bulk-logs-toggle');
      expect(await toggle.textContent()).to.not.equal('Ver logs (0)');
    }
    const firstItem = page.getByTestId(`bulk-item-${names[0]}`);
    await firstItem.getByTestId('bulk-logs-toggle').click();
    await soon(() => firstItem.getByTestId('bulk-logs').textContent(), (v) => expect(v).to.match(/^\[\d{2}:\d{2}:\d{2}\]/));
    await firstItem.getByTestId('bulk-logs-toggle').click();

    for (const n of names) {
      const item = page.getByTestId(`bulk-item-${n}`);
      const download = page.waitForEvent('download', { timeout: 60000 });
      await item.getByRole('button', { name: 'Baixar AAB' }).click();
      const file = await download;
      expect(file.suggestedFilename()).to.equal(n.replace('.apk', '.aab'));
      const bytes = await readFile((await file.path())!);
      expect(bytes.subarray(0, 2).toString('latin1')).to.equal('PK');
    }
    const first = page.getByTestId(`bulk-item-${names[0]}`);
    const logs = page.waitForEvent('download');
    await first.getByTestId('bulk-logs-download').click();
    const logFile = await logs;
    expect(logFile.suggestedFilename()).to.match(/^conversion-[0-9a-f-]+-logs\.txt$/);
    expect((await readFile((await logFile.path())!, 'utf8')).length).to.be.greaterThan(0);
    await toastOf('Logs baixados');

    // The results stay listed when the admin comes back to the screen.
    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Gerenciar Planos' }).click();
    await page.getByTestId('plans-table').waitFor();
    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Conversão em Massa' }).click();
    for (const n of names) await page.locator(`[data-testid="bulk-item-${n}"][data-status="completed"]`).waitFor();
    await page.getByRole('button', { name: 'Limpar concluídas' }).click();
    await soon(() => page.getByTestId('bulk-items').count(), (v) => expect(v).to.equal(0));

    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Conversões' }).click();
    await page.locator('[data-testid="conversions-table"] tbody tr').nth(3).waitFor();
    await page.getByLabel('Buscar').fill('  npm-helloactivity ');
    // The debounced search (400 ms) narrows the list to the one conversion.
    await page.locator('[data-testid="conversions-table"] tbody tr').nth(1).waitFor({ state: 'detached', timeout: SHORT });
    await soon(() => page.locator('[data-testid="conversions-table"] tbody tr').allTextContents(), (v) => expect(v).to.have.length(1));
    await soon(() => page.locator('[data-testid="conversions-table"] tbody tr').first().textContent(), (v) => expect(v).to.contain('npm-helloactivity.apk').and.contain('admin-e2e@example.com'));
    await shot('conversions-search');
    // Each conversion opens its own page (status, logs, result) for support.
    await page.locator('[data-testid="conversions-table"] tbody tr').first().getByTestId('conversion-open').click();
    await page.getByTestId('conversion-page').waitFor();
    await page.getByTestId('result-completed').waitFor();
    await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(Number(v)).to.be.greaterThan(0));
    expect(open.errors).to.deep.equal([]);
  });
});
