/**
 * The conversion page's live channel in a real browser: the socket cut by the server (banner
 * 'Conexão perdida: Tentando reconectar...', then recovery), and the server-sent events
 * fallback when the socket cannot connect at all — opened with a single-use stream ticket,
 * never the session token, in its URL.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { buildCreditUser } from '../helpers/factories.js';
import { corpusApk, requireCorpus } from '../helpers/conversions.js';
import { openPage, readTimeline, recordConverterTimeline, sessionOf, shootBoth, startSlowConversionServer } from './dashboardHelpers.js';

const APK = 'ag-politedroid.apk';

async function startConversion(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}/converter`);
  await page.getByTestId('ready').waitFor();
  await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
  await page.getByTestId('start-conversion').click();
  await page.getByTestId('status-card').waitFor();
}

describe('dashboard: live conversion channel in a real browser', function () {
  this.timeout(180000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    requireChromium(this);
    requireCorpus(this);
    server = await startSlowConversionServer('admin-live@aabify.test');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('socketCut_serverSide_bannerThenRecoveryAndTheConversionCompletes', async () => {
    const { page, context, errors } = await openPage(browser, { session: sessionOf(server, await buildCreditUser(server, 5)) });
    await recordConverterTimeline(page);
    await startConversion(page, server);
    await page.locator('[data-testid="connection-indicator"][data-connected="true"]').waitFor({ timeout: 15000 });
    await page.locator('[data-testid="status-card"][data-status="processing"]').waitFor({ timeout: 30000 });

    server.ctx.conversionEvents.io.disconnectSockets(true);
    const banner = page.getByTestId('connection-lost');
    await banner.waitFor({ timeout: 10000 });
    await soon(() => banner.textContent(), (v) => expect(v).to.equal('Conexão perdida: Tentando reconectar...'));
    await shootBoth(page, 'converter-connection-lost');
    await page.locator('[data-testid="connection-indicator"][data-connected="true"]').waitFor({ timeout: 15000 });
    await soon(() => banner.count(), (v) => expect(v).to.equal(0));

    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });
    const t = await readTimeline(page);
    expect(t.sawLostBanner).to.equal(true);
    expect(t.indicator).to.include.members(['Conectado', 'Desconectado']);
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('sseFallback_socketUnreachable_followsTheConversionOverServerSentEvents', async () => {
    const session = sessionOf(server, await buildCreditUser(server, 5));
    const { page, context, errors } = await openPage(browser, { session });
    // No socket.io at all: neither its HTTP polling nor its websocket gets through.
    await page.route('**/socket.io/**', (route) => route.abort());
    await page.routeWebSocket(/socket\.io/, (ws) => ws.close());
    const streams: string[] = [];
    const tickets: string[] = [];
    page.on('request', (r) => {
      if (!r.url().includes('/api/conversion/updates/')) return;
      if (r.method() === 'POST') tickets.push(r.url());
      else streams.push(r.url());
    });
    await recordConverterTimeline(page);
    await startConversion(page, server);
    await page.locator('[data-testid="connection-indicator"]', { hasText: 'Conectado (SSE)' }).waitFor({ timeout: 20000 });
    await page.getByTestId('log-row').first().waitFor({ timeout: 30000 });
    // The server drops the stream: the browser's own retry would reuse the spent ticket, so the
    // page reopens it with a new one.
    const opened = streams.length;
    server.http!.closeAllConnections();
    await soon(async () => streams.length, (n) => expect(n).to.be.greaterThan(opened), 20000);
    await page.getByTestId('result-completed').waitFor({ timeout: 60000 });

    expect(new Set(streams).size, 'each stream opened with its own ticket').to.equal(streams.length);
    expect(tickets.length).to.be.at.least(streams.length);
    expect(streams[0]).to.match(/\/api\/conversion\/updates\/[0-9a-f-]+\?token=sse_[A-Za-z0-9_-]{43}$/);
    for (const url of streams) expect(url).to.not.contain(session.token);
    expect(tickets[0]).to.match(/\/api\/conversion\/updates\/[0-9a-f-]+\/ticket$/);
    const t = await readTimeline(page);
    expect(new Set(t.percents).size, `percents ${t.percents.join(',')}`).to.be.greaterThan(2);
    expect(errors).to.deep.equal([]);
    await context.close();
  });
});
