/**
 * The admin screens at 1280 px, with the long texts real data has (a long customer e-mail, plans
 * with descriptions, a conversion, queued e-mails, purchases): every column header of every list
 * in view and not covered by another element (the sticky 'Ações' column included), and the
 * sidebar's labels each on one line inside the sidebar.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildCreditUser, buildUser } from '../helpers/factories.js';
import { buildPlan, buildPurchase } from '../helpers/planFactories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitForStatus } from '../helpers/conversions.js';
import { tokenFor } from '../helpers/factories.js';
import { openPage, sessionOf, type OpenPage } from './dashboardHelpers.js';

interface HeaderProblem {
  header: string;
  why: string;
}

/** Runs in the page: each header cell of the lists, whether it is in view and on top at its centre. */
const HEADERS_IN_VIEW = `(() => {
  const out = [];
  for (const th of document.querySelectorAll('table thead th')) {
    const r = th.getBoundingClientRect();
    const name = (th.textContent || '').trim() || th.querySelector('[aria-label]')?.getAttribute('aria-label') || '(sem texto)';
    if (r.width === 0 || r.height === 0) { out.push({ header: name, why: 'sem tamanho' }); continue; }
    const box = th.closest('.table-responsive') || th.closest('table');
    const b = box.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1) { out.push({ header: name, why: 'fora da área visível da tabela (' + Math.round(r.left) + '–' + Math.round(r.right) + ' de ' + Math.round(b.left) + '–' + Math.round(b.right) + ')' }); continue; }
    if (r.right > document.documentElement.clientWidth) { out.push({ header: name, why: 'fora da tela' }); continue; }
    th.scrollIntoView({ block: 'center', inline: 'nearest' });
    const c = th.getBoundingClientRect();
    const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    if (!hit || !th.contains(hit)) out.push({ header: name, why: 'coberto por ' + (hit ? hit.tagName.toLowerCase() + '.' + String(hit.className).split(' ').slice(0, 2).join('.') + ' "' + (hit.textContent || '').trim().slice(0, 20) + '"' : 'nada') });
  }
  return out;
})()`;

/** Runs in the page: sidebar labels that wrap onto a second line or pass the sidebar's edge. */
const SIDEBAR_PROBLEMS = `(() => {
  const out = [];
  const nav = document.querySelector('[data-testid="admin-sidebar"]');
  const edge = nav.parentElement.getBoundingClientRect().right;
  const range = document.createRange();
  for (const label of nav.querySelectorAll('.nav-link span')) {
    range.selectNodeContents(label);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) out.push(label.textContent + ': em ' + tops.size + ' linhas');
    if (range.getBoundingClientRect().right > edge + 1) out.push(label.textContent + ': passa da coluna');
    const link = label.closest('.nav-link');
    if (link.getBoundingClientRect().right > edge + 1) out.push(label.textContent + ': o item passa da coluna');
  }
  return out;
})()`;

describe('admin layout at 1280 px', function () {
  this.timeout(240000);
  let server: TestServer;
  let browser: Browser;
  let open: OpenPage;
  let page: Page;

  before(async function () {
    requireChromium(this);
    requireCorpus(this);
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    const admin = await buildAdmin(server, { email: 'admin-com-um-endereco-longo@empresa-exemplo.com.br', name: 'Ana Administradora' });
    const customer = await buildCreditUser(server, 4, { email: 'cliente.com.um.email.bem.comprido@empresa-exemplo.com.br', name: 'Carla' });
    const other = await buildUser(server, { email: 'outra.pessoa.com.nome.longo@exemplo.com.br' });
    const plan = await buildPlan(server, { name: 'Pacote 10 conversões', description: 'Dez conversões para usar quando quiser, sem prazo de validade', priceCents: 1990 });
    await buildPlan(server, { name: 'Assinatura mensal profissional', description: 'Conversões ilimitadas por um mês inteiro', type: 'subscription', priceCents: 4990 });
    await buildPurchase(server, customer, plan, { status: 'approved', approvedAt: new Date() });
    await buildPurchase(server, other, plan, { status: 'pending' });
    await server.ctx.mail.passwordReset(customer.email);
    await server.ctx.mail.passwordReset(other.email);
    const token = tokenFor(server, customer);
    const id = conversionIdOf(await uploadApk(server, token, corpusApk('ag-politedroid.apk')));
    await waitForStatus(server, token, id, ['completed']);
    browser = await launchBrowser();
    open = await openPage(browser, { session: sessionOf(server, admin), width: 1280 });
    page = open.page;
  });
  after(async () => {
    await open?.context.close();
    await browser?.close();
    await server?.stop();
  });

  const lists: Array<[string, string]> = [
    ['/admin/users', 'users-table'],
    ['/admin/purchases', 'purchases-table'],
    ['/admin/conversions', 'conversions-table'],
    ['/admin/plans', 'plans-table'],
    ['/admin/management', 'admins-table'],
    ['/admin/emails', 'emails-list'],
  ];

  for (const [path, testId] of lists) {
    it(`headers_1280px_${path.replace('/admin/', '')}_everyColumnHeaderInViewAndUncovered`, async () => {
      await page.goto(`${server.url}${path}`);
      await page.locator(`[data-testid="${testId}"] thead th`).first().waitFor({ timeout: 20000 });
      await page.evaluate(() => document.fonts.ready);
      const problems = await soon(
        () => page.evaluate(HEADERS_IN_VIEW) as Promise<HeaderProblem[]>,
        (p) => expect(p.map((x) => `${x.header}: ${x.why}`)).to.deep.equal([]),
        3000,
      );
      expect(problems).to.deep.equal([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.be.at.most(0);
    });
  }

  it('headers_992px_aTableWiderThanItsBox_saysItScrollsSideways', async () => {
    await page.setViewportSize({ width: 992, height: 900 });
    try {
      await page.goto(`${server.url}/admin/purchases`);
      const table = page.getByTestId('purchases-table');
      await table.locator('thead th').first().waitFor();
      const scrolls = await table.evaluate((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1);
      expect(scrolls, 'the purchases table fits at 992 px: pick a narrower width for this test').to.equal(true);
      await soon(() => page.getByTestId('purchases-table-scroll-hint').textContent(), (v) => expect(v).to.contain('Role a tabela para o lado'));
      expect(await table.getAttribute('class')).to.contain('data-table-scrolls');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('sidebar_1280px_everyLabelOnOneLineInsideItsColumn', async () => {
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('admin-sidebar').waitFor();
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(SIDEBAR_PROBLEMS)).to.deep.equal([]);
  });
});
