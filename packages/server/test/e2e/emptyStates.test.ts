/**
 * A new customer's account screens with nothing registered yet (no upload keystore, no Google
 * Play key): each shows its empty state, and no API call on the way fails — the browser's
 * console stays free of failed requests, which a 404 for "nothing here" used to put there.
 */
import { expect } from 'chai';
import { buildCreditUser } from '../helpers/factories.js';
import { openPage, sessionOf, UI_WAIT_MS, useDashboardSuite } from './dashboardHelpers.js';

describe('dashboard: empty states of a new account', function () {
  this.timeout(120000);
  const ui = useDashboardSuite();


  it('keystoreGooglePlayConverter_nothingRegistered_emptyStatesAndNoFailedApiCall', async () => {
    const customer = await buildCreditUser(ui.server, 3);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/') && r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${ui.server.url}/account/keystore`);
      await page.getByTestId('keystore-empty').waitFor({ timeout: UI_WAIT_MS });
      await page.goto(`${ui.server.url}/account/google-play`);
      await page.getByTestId('play-credentials-empty').waitFor({ timeout: UI_WAIT_MS });
      await page.goto(`${ui.server.url}/converter`);
      await page.getByRole('link', { name: 'Cadastrar chave de upload' }).waitFor({ timeout: UI_WAIT_MS });
      await page.getByTestId('version-code-option').waitFor({ timeout: UI_WAIT_MS });
      await page.waitForLoadState('networkidle');
      expect(failed, 'API calls that failed').to.deep.equal([]);
      expect(errors, 'console errors').to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
