/**
 * Every route of the dashboard at 390 px and 1280 px, in the light and the dark theme, as a
 * customer, as an admin and signed out. Each screen must have: no horizontal overflow of the
 * page, no text clipped by its container (an ellipsis is fine when the whole text is in a
 * tooltip), no word broken in the middle across two lines, its own <title>, and no serious or
 * critical axe-core finding (WCAG A and AA rules: contrast, names of progress bars and controls…). One browser; one context per role, width
 * and theme. With AABIFY_SCREENSHOTS=1 (`npm run screenshots`) it also writes a screenshot of
 * every screen and an index of them into test-artifacts/screenshots/screens/.
 */
import { expect } from 'chai';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiUser } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, SCREENSHOT_DIR, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor } from '../helpers/factories.js';
import { buildPlan, buildPurchase } from '../helpers/planFactories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, uploadBytes, waitForStatus } from '../helpers/conversions.js';
import { buildZip } from '../../../converter/test/helpers/zipBuilder.js';
import { presentUser } from '../../src/accounts/userPresenter.js';

const SHOOT = process.env.AABIFY_SCREENSHOTS === '1';
const SHOT_DIR = join(SCREENSHOT_DIR, 'screens');
const WIDTHS = [390, 1280] as const;
const THEMES = ['light', 'dark'] as const;
const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Problems {
  overflow: number;
  /** Elements past the right edge when the page overflows (the culprits). */
  wide: string[];
  clipped: string[];
  brokenWords: string[];
  title: string;
}

/**
 * Runs in the page. Clipped: an element whose own text is wider or taller than its box while it
 * hides the excess (an ellipsis with a title holding the whole text is allowed). Broken word: a
 * word of letters whose characters sit on two lines.
 */
const INSPECT = `(() => {
  const out = { overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, clipped: [], brokenWords: [], title: document.title, wide: [] };
  const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const describe = (el) => (el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.') : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
  for (const el of document.querySelectorAll('body *')) {
    if (out.overflow > 0 && el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.table-responsive, .offcanvas')) out.wide.push(describe(el));
    if (!visible(el) || el.closest('svg, .visually-hidden, .visually-hidden-focusable, .recharts-wrapper, [aria-hidden="true"]')) continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!ownText || el.closest('.visually-hidden-focusable')) continue;
    const cs = getComputedStyle(el);
    const hidesX = cs.overflowX === 'hidden' || cs.overflowX === 'clip';
    const hidesY = cs.overflowY === 'hidden' || cs.overflowY === 'clip';
    const ellipsisWithTitle = cs.textOverflow === 'ellipsis' && (el.title || el.closest('[title]'));
    if (hidesX && el.scrollWidth > el.clientWidth + 1 && !ellipsisWithTitle) out.clipped.push(describe(el));
    else if (hidesY && el.scrollHeight > el.clientHeight + 2 && cs.webkitLineClamp === 'none') out.clipped.push(describe(el));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (out.overflow > 0 && parent && node.textContent.trim()) {
      range.selectNodeContents(node);
      if (range.getBoundingClientRect().right > document.documentElement.clientWidth + 1) out.wide.push('text of ' + describe(parent));
    }
    if (!parent || !visible(parent) || parent.closest('.visually-hidden, .text-break-word, code, pre, .font-monospace, .log-row, svg, option, select, textarea')) continue;
    const text = node.textContent;
    const re = /\\p{L}{3,}/gu;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.brokenWords.push(m[0] + ' in ' + describe(parent));
    }
  }
  return out;
})()`;

interface Route {
  path: string;
  /** What shows once the screen has its data. */
  ready: string;
  name: string;
}

describe('dashboard sweep: every route at 390 and 1280 px, light and dark', function () {
  this.timeout(600000);
  let server: TestServer;
  let browser: Browser;
  let customer: { token: string; user: ApiUser };
  let newcomer: { token: string; user: ApiUser };
  let admin: { token: string; user: ApiUser };
  let conversionId = '';
  const shots: string[] = [];

  before(async function () {
    requireChromium(this);
    requireCorpus(this);
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    const adminUser = await buildAdmin(server, { email: 'admin-varredura@aabify.test', name: 'Ana Administradora' });
    const customerUser = await buildCreditUser(server, 4, { email: 'cliente.com.um.email.bem.comprido@empresa-exemplo.com.br', name: 'Carla' });
    const newcomerUser = await buildUser(server, { email: 'novo@aabify.test' });
    const plan = await buildPlan(server, { name: 'Pacote 10 conversões', priceCents: 1990, features: ['10 conversões', 'Suporte por email'] });
    await buildPlan(server, { name: 'Assinatura mensal', type: 'subscription', priceCents: 4990 });
    await buildPurchase(server, customerUser, plan, { status: 'approved', approvedAt: new Date() });
    await buildPurchase(server, newcomerUser, plan, { status: 'pending' });
    const session = (u: typeof adminUser) => ({ token: tokenFor(server, u), user: presentUser(u) });
    admin = session(adminUser);
    customer = session(customerUser);
    newcomer = session(newcomerUser);
    const up = await uploadApk(server, customer.token, corpusApk('ag-politedroid.apk'));
    conversionId = conversionIdOf(up);
    await waitForStatus(server, customer.token, conversionId, ['completed']);
    browser = await launchBrowser();
    if (SHOOT) await mkdir(SHOT_DIR, { recursive: true });
  });
  after(async () => {
    if (SHOOT && shots.length) {
      const lines = ['# Telas do aabify', '', 'Gerado por `npm run screenshots` (larguras 390 e 1280 px, temas claro e escuro).', '', ...shots.map((s) => `- [${s}](${s}.png)`), ''];
      await writeFile(join(SHOT_DIR, 'index.md'), lines.join('\n'));
    }
    await browser?.close();
    await server?.stop();
  });

  const routesOf = (): Record<'public' | 'customer' | 'newcomer' | 'admin', Route[]> => ({
    public: [
      { name: 'login', path: '/login', ready: 'form' },
      { name: 'register', path: '/register', ready: 'form' },
      { name: 'api-docs', path: '/api/docs', ready: 'details.card' },
    ],
    customer: [
      { name: 'dashboard', path: '/dashboard', ready: '[data-testid="plan-card"]' },
      { name: 'converter', path: '/converter', ready: '[data-testid="ready"]' },
      { name: 'history', path: '/history', ready: '[data-testid="history-row"]' },
      { name: 'conversion', path: `/conversions/${conversionId}`, ready: '[data-testid="play-checklist"]' },
      { name: 'purchases', path: '/purchases', ready: 'h1' },
      { name: 'keystore', path: '/account/keystore', ready: '[data-testid="dropzone"], form' },
      { name: 'api-tokens', path: '/account/api-tokens', ready: '[data-testid="api-token-form"]' },
      { name: 'profile', path: '/account/profile', ready: '[data-testid="email-change-form"]' },
      { name: 'google-play', path: '/account/google-play', ready: '[data-testid="play-credentials-empty"]' },
      { name: 'payment-status', path: '/payment-status', ready: 'h1' },
    ],
    newcomer: [{ name: 'plans', path: '/plans', ready: '[data-testid="plan-offer"]' }],
    admin: [
      { name: 'admin-dashboard', path: '/admin', ready: '[data-testid="stat-users-total"]' },
      { name: 'admin-system', path: '/admin/system', ready: '[data-testid="system-card"]' },
      { name: 'admin-users', path: '/admin/users', ready: '[data-testid="users-table"]' },
      { name: 'admin-purchases', path: '/admin/purchases', ready: '[data-testid="purchases-table"]' },
      { name: 'admin-conversions', path: '/admin/conversions', ready: '[data-testid="conversions-table"]' },
      { name: 'admin-conversion-support', path: `/conversions/${conversionId}`, ready: '[data-testid="support-banner"]' },
      { name: 'admin-plans', path: '/admin/plans', ready: '[data-testid="plans-table"]' },
      { name: 'admin-bulk', path: '/admin/bulk-converter', ready: '[data-testid="bulk-dropzone"]' },
      { name: 'admin-admins', path: '/admin/management', ready: '[data-testid="admins-table"]' },
      { name: 'admin-emails', path: '/admin/emails', ready: '[data-testid="emails-list"]' },
      { name: 'admin-settings', path: '/admin/settings', ready: '[data-testid="setting-upload-maxFileSize"]' },
    ],
  });

  async function contextFor(width: number, theme: 'light' | 'dark', session?: { token: string; user: ApiUser }): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme: theme, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', bypassCSP: true });
    if (session) {
      await context.addInitScript((s: { token: string; user: string }) => {
        localStorage.setItem('aabify-token', s.token);
        localStorage.setItem('aabify-user', s.user);
      }, { token: session.token, user: JSON.stringify(session.user) });
    }
    return context;
  }

  async function check(page: Page, route: Route, label: string): Promise<string[]> {
    await page.goto(`${server.url}${route.path}`);
    await page.locator(route.ready).first().waitFor({ timeout: 20000 });
    // Loading placeholders and spinners gone, fonts laid out.
    await soon(() => page.locator('[aria-busy="true"], .spinner-border').count(), (n) => expect(n, `${label}: still loading`).to.equal(0), 15000);
    await page.evaluate(() => document.fonts.ready);
    const found = (await page.evaluate(INSPECT)) as Problems;
    const problems: string[] = [];
    if (found.overflow > 0) problems.push(`${label}: page scrolls sideways by ${found.overflow}px (${found.wide.slice(-3).join('; ')})`);
    for (const c of found.clipped) problems.push(`${label}: text clipped: ${c}`);
    for (const w of found.brokenWords) problems.push(`${label}: word broken across lines: ${w}`);
    if (!/ · aabify$/.test(found.title)) problems.push(`${label}: no page title (${found.title})`);
    if (!(await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object'))) await page.addScriptTag({ content: await AXE_SOURCE });
    const findings = (await page.evaluate(() =>
      (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: string[]; failureSummary?: string }> }> }> } }).axe
        .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
        .then((r) =>
          r.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`)),
        ),
    )) as string[];
    for (const f of findings) problems.push(`${label}: axe: ${f}`);
    if (SHOOT) {
      const name = `${route.name}-${label.split(' ')[1]}`;
      await page.screenshot({ path: join(SHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
      shots.push(name);
    }
    return problems;
  }

  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      it(`sweep_${width}px_${theme}_noOverflowClippingBrokenWordsOrSeriousAxeFindings`, async () => {
        const routes = routesOf();
        const problems: string[] = [];
        for (const [role, session] of [['public', undefined], ['customer', customer], ['newcomer', newcomer], ['admin', admin]] as const) {
          const context = await contextFor(width, theme, session);
          const page = await context.newPage();
          const errors: string[] = [];
          page.on('pageerror', (e) => errors.push(e.message));
          for (const route of routes[role]) {
            problems.push(...(await check(page, route, `${route.path} ${width}-${theme}`)));
          }
          await context.close();
          problems.push(...errors.map((e) => `${role}: script error: ${e}`));
        }
        expect(problems, problems.join('\n')).to.deep.equal([]);
      });
    }
  }

  it('lists_phoneCardsKeepEveryFieldAndDesktopKeepsTheActionsInView', async () => {
    // Phone: the history is cards with the date, 'Baixar AAB' and 'Logs' inside the screen.
    const phone = await contextFor(390, 'light', customer);
    const page = await phone.newPage();
    await page.goto(`${server.url}/history`);
    const card = page.getByTestId('history-row').first();
    await card.waitFor();
    await soon(() => page.getByTestId('history-table').getAttribute('data-layout'), (v) => expect(v).to.equal('cards'));
    await soon(() => card.textContent(), (v) => expect(v).to.contain('Data').and.contain('Tamanho'));
    for (const name of ['Baixar AAB', 'Ver logs de ag-politedroid.apk']) {
      const box = await card.getByRole('button', { name }).boundingBox();
      expect(box, name).to.not.equal(null);
      expect(box!.x + box!.width, name).to.be.at.most(390);
    }
    await phone.close();

    // 1280 px: the purchases' actions column is in view without scrolling the table.
    const desk = await contextFor(1280, 'light', admin);
    const adminPage = await desk.newPage();
    await adminPage.goto(`${server.url}/admin/purchases`);
    const approve = adminPage.getByRole('button', { name: 'Aprovar compra de novo@aabify.test' });
    await approve.waitFor();
    const box = await approve.boundingBox();
    expect(box!.x + box!.width).to.be.at.most(1280);
    expect(await approve.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    })).to.equal(true);
    // The long email is cut with an ellipsis and the whole address in a tooltip.
    await adminPage.goto(`${server.url}/admin/users`);
    const email = adminPage.locator('[title="cliente.com.um.email.bem.comprido@empresa-exemplo.com.br"]').first();
    await email.waitFor();
    expect(await email.evaluate((el) => getComputedStyle(el).textOverflow)).to.equal('ellipsis');
    await desk.close();
  });

  it('support_adminOpensACustomersConversion_seesWhoseAndNoDownloadWhileTheSettingIsOff', async () => {
    const context = await contextFor(1280, 'light', admin);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/conversions`);
    await page.getByTestId('conversion-open').first().click();
    await page.getByTestId('conversion-page').waitFor();
    await soon(() => page.getByTestId('support-banner').textContent(), (v) => expect(v).to.contain('cliente.com.um.email.bem.comprido@empresa-exemplo.com.br').and.contain('aberta pelo suporte'));
    await soon(() => page.getByTestId('download-unavailable').textContent(), (v) => expect(v).to.contain('o download dos arquivos de clientes está desativado'));
    expect(await page.getByRole('button', { name: 'Baixar AAB' }).count()).to.equal(0);
    await soon(() => page.getByTestId('log-count-all').textContent(), (v) => expect(Number(v)).to.be.greaterThan(0));
    // What only the owner may do is not offered to the admin.
    for (const name of ['Nova Conversão', 'Publicar no Google Play']) expect(await page.getByRole('button', { name }).count(), name).to.equal(0);
    expect(await page.getByRole('link', { name: 'Ver Histórico' }).count()).to.equal(0);
    await context.close();
  });

  it('words_adminScreensShowNoInternals_noRawSettingKeysRoleCodesOrEngineStepNames', async () => {
    const context = await contextFor(1280, 'light', admin);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/system`);
    const version = page.getByTestId('system-version');
    await soon(() => version.textContent(), (v) => expect(v).to.match(/^aabify \S+ · Node\.js \d+\.\d+\.\d+ · site e conversões no mesmo processo$/));
    await page.goto(`${server.url}/admin/settings`);
    await page.getByTestId('setting-upload-maxFileSize').waitFor();
    expect(await page.locator('main').textContent()).to.not.match(/upload\.maxFileSize|conversions\.maxConcurrent/);
    // A conversion's log as the admin reads it: stage tags in pt-BR.
    await page.goto(`${server.url}/conversions/${conversionId}`);
    await page.getByTestId('support-banner').waitFor();
    await soon(() => page.locator('.log-row').count(), (n) => expect(n).to.be.greaterThan(0));
    await soon(() => page.getByTestId('conversion-page').textContent(), (v) => expect(v).to.match(/\[(envio|leitura|conclusão)\]/));
    const text = await page.getByTestId('conversion-page').textContent();
    expect(text).to.not.match(/\[(upload|queue|reading|writing|storing|done|report)\]/);
    await context.close();
  });

  it('touch_phoneWithoutAMouse_dropZonesSayTapNotDrag', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'pt-BR' });
    await context.addInitScript((s: { token: string; user: string }) => {
      localStorage.setItem('aabify-token', s.token);
      localStorage.setItem('aabify-user', s.user);
    }, { token: customer.token, user: JSON.stringify(customer.user) });
    const page = await context.newPage();
    await page.goto(`${server.url}/converter`);
    await soon(() => page.getByTestId('dropzone').textContent(), (v) => expect(v).to.contain('Toque para escolher seu APK'));
    expect(await page.getByTestId('dropzone').textContent()).to.not.contain('Arraste');
    await context.close();
  });

  it('failed_aFileThatCannotConvert_saysNoCreditWasUsedAndOffersNoUselessRetry', async () => {
    const id = conversionIdOf(await uploadBytes(server, customer.token, buildZip([{ name: 'assets/leia-me.txt', data: 'sem manifesto' }]), { fileName: 'sem-manifesto.apk' }));
    await waitForStatus(server, customer.token, id, ['failed']);
    const context = await contextFor(1280, 'light', customer);
    const page = await context.newPage();
    await page.goto(`${server.url}/conversions/${id}`);
    const card = page.getByTestId('result-failed');
    await card.waitFor();
    expect(await card.getByTestId('result-no-credit').textContent()).to.contain('Nenhum crédito foi usado');
    await card.getByTestId('result-retry-wont-help').waitFor();
    expect(await card.getByRole('button', { name: 'Tentar Novamente' }).count()).to.equal(0);
    expect(await card.getByRole('button', { name: 'Nova Conversão' }).count()).to.equal(1);
    await context.close();
  });

  it('toasts_phone_underTheTopBarAndClosedByTheNextSuccess', async () => {
    const context = await contextFor(390, 'light', admin);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/management`);
    await page.getByTestId('promote-form').getByLabel('E-mail do usuário').fill('ninguem@aabify.test');
    await page.getByTestId('promote-form').getByRole('button', { name: 'Promover' }).click();
    const error = page.locator('[data-testid="toast"][data-variant="danger"]');
    await error.waitFor();
    const toastTop = (await error.boundingBox())!.y;
    const barBottom = await page.locator('nav.navbar').evaluate((n) => n.getBoundingClientRect().bottom);
    expect(toastTop).to.be.at.least(barBottom);
    // Admin creation checks the password in the browser like every other form, beside the field.
    const create = page.getByTestId('create-admin-form');
    await create.getByLabel('E-mail').fill('outro-admin@aabify.test');
    await create.getByLabel('Senha').fill('123');
    await create.getByRole('button', { name: 'Criar administrador' }).click();
    await soon(() => create.locator('#field-password-error').textContent(), (v) => expect(v).to.equal('A senha deve ter pelo menos 6 caracteres'));
    // The next action that succeeds closes the error toast.
    await create.getByLabel('Senha').fill('senha-forte-1');
    await page.getByTestId('create-admin-form').getByRole('button', { name: 'Criar administrador' }).click();
    await page.locator('[data-testid="toast"][data-variant="success"]').waitFor();
    await soon(() => error.count(), (v) => expect(v).to.equal(0));
    await context.close();
  });

  it('sweep_phone_adminSidebarSlidesOutInsteadOfPillsAboveThePage', async () => {
    const context = await contextFor(390, 'light', admin);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/users`);
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByTestId('admin-sidebar').count()).to.equal(0);
    await soon(() => page.getByTestId('users-table').getAttribute('data-layout'), (v) => expect(v).to.equal('cards'));
    await page.getByTestId('admin-menu-button').click();
    const menu = page.getByTestId('admin-sidebar');
    await menu.waitFor();
    await menu.getByRole('link', { name: 'Fila e Sistema' }).click();
    await page.getByTestId('system-card').waitFor();
    await soon(() => page.getByTestId('admin-sidebar').count(), (v) => expect(v).to.equal(0));
    await context.close();
  });
});
