/**
 * 'Chave de upload' in a real browser against a real server and the real engine: reached from
 * the account menu, the empty state, the form's pt-BR field errors (required fields, wrong
 * password, wrong alias), a keytool-made PKCS12 keystore stored and shown by its certificate's
 * facts, a corpus APK converted with 'Assinar o AAB com minha chave de upload' whose downloaded
 * AAB jarsigner verifies, and the removal after a confirmation.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeystoreMetadata } from '@aabify/shared';
import { soon } from '../helpers/browser.js';
import { api } from '../helpers/http.js';
import { buildCreditUser, tokenFor } from '../helpers/factories.js';
import { corpusApk, requireCorpus } from '../helpers/conversions.js';
import { openPage, sessionOf, shootBoth, useDashboardSuite, waitForPath } from './dashboardHelpers.js';

const PASS = 'senha-e2e-123';
const ALIAS = 'upload';
const APK = 'jx-small.apk';

function hasTool(name: string): boolean {
  return !spawnSync(name, ['-help'], { encoding: 'utf8' }).error;
}

describe('dashboard: upload keystore and signed conversions in a real browser', function () {
  this.timeout(180000);
  let dir: string;
  let keystorePath: string;
  let sha256: string;

  before(async function () {
    requireCorpus(this);
    if (!hasTool('keytool')) {
      if (process.env.CI === 'true') throw new Error('keytool não encontrado (instale um JDK)');
      console.log('    (pulado: keytool não encontrado)');
      this.skip();
    }
    dir = await mkdtemp(join(tmpdir(), 'aabify-e2e-ks-'));
    keystorePath = join(dir, 'upload.p12');
    const gen = spawnSync(
      'keytool',
      ['-genkeypair', '-keystore', keystorePath, '-storetype', 'PKCS12', '-alias', ALIAS, '-keyalg', 'RSA', '-keysize', '2048', '-validity', '10000',
        '-dname', 'CN=Loja E2E, O=aabify, C=BR', '-storepass', PASS, '-keypass', PASS],
      { encoding: 'utf8' },
    );
    expect(gen.status, gen.stdout + gen.stderr).to.equal(0);
    const list = spawnSync('keytool', ['-list', '-v', '-keystore', keystorePath, '-storepass', PASS, '-alias', ALIAS], { encoding: 'utf8' });
    sha256 = /SHA256:\s*([0-9A-F:]+)/.exec(list.stdout)?.[1] ?? '';
    expect(sha256, list.stdout).to.match(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const ui = useDashboardSuite();

  it('keystore_uploadShowConvertSignedDelete_fromTheAccountMenu', async () => {
    const user = await buildCreditUser(ui.server, 3);
    const token = tokenFor(ui.server, user);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, user) });
    try {
      // Without a keystore the converter's checkbox is off and says where to get one.
      await page.goto(`${ui.server.url}/converter`);
      const signBox = page.getByLabel('Assinar o AAB com minha chave de upload');
      await page.getByRole('link', { name: 'Cadastrar chave de upload' }).waitFor();
      await soon(() => signBox.isDisabled(), (v) => expect(v).to.equal(true));

      // Reached from the account menu.
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('link', { name: 'Chave de upload', exact: true }).click();
      await waitForPath(page, '/account/keystore');
      await page.getByRole('heading', { name: 'Chave de upload' }).waitFor();
      await page.getByTestId('keystore-empty').waitFor();
      await soon(() => page.getByTestId('keystore-security').textContent(), (v) => expect(v).to.contain('nunca podem ser baixados'));
      await shootBoth(page, 'keystore-empty');

      // Required fields, in pt-BR beside the fields.
      await page.getByTestId('keystore-submit').click();
      await page.getByText('Selecione o arquivo do keystore (.p12, .pfx ou .jks).').waitFor();
      await page.getByText('Informe a senha do keystore.').waitFor();

      // A wrong password and a wrong alias come back on their fields; nothing is stored.
      await page.getByLabel('Arquivo do keystore').setInputFiles(keystorePath);
      await page.getByLabel('Senha do keystore').fill('senha-errada');
      await page.getByTestId('keystore-submit').click();
      await page.getByText('Senha do keystore incorreta.').waitFor();
      await soon(() => page.getByLabel('Senha do keystore').getAttribute('aria-invalid'), (v) => expect(v).to.equal('true'));
      await page.getByLabel('Senha do keystore').fill(PASS);
      await page.getByLabel('Alias da chave').fill('outro');
      await page.getByTestId('keystore-submit').click();
      await page.getByText(/Alias não encontrado no keystore\./).waitFor();
      await soon(() => page.getByLabel('Alias da chave').getAttribute('aria-invalid'), (v) => expect(v).to.equal('true'));
      await shootBoth(page, 'keystore-errors');
      expect((await api(ui.server).get('/account/keystore', token)).body).to.deep.equal({ keystore: null });

      // Stored: the certificate's public facts.
      await page.getByLabel('Alias da chave').fill(ALIAS);
      await page.getByTestId('keystore-submit').click();
      await page.getByTestId('keystore-stored').waitFor();
      await page.getByText('Keystore salvo.', { exact: false }).first().waitFor();
      await soon(() => page.getByTestId('keystore-alias').textContent(), (v) => expect(v).to.equal(ALIAS));
      await soon(() => page.getByTestId('keystore-subject').textContent(), (v) => expect(v).to.contain('CN=Loja E2E'));
      await soon(() => page.getByTestId('keystore-sha256').textContent(), (v) => expect(v).to.equal(sha256));
      await soon(() => page.getByTestId('keystore-not-after').textContent(), (v) => expect(v).to.match(/^\d{2}\/\d{2}\/\d{4}$/));
      const stored = await api(ui.server).get<{ keystore: KeystoreMetadata }>('/account/keystore', token);
      expect(stored.body.keystore).to.include({ alias: ALIAS, certificateSha256: sha256, fileName: 'upload.p12' });
      await shootBoth(page, 'keystore-stored');

      // A signed conversion from the converter page.
      await page.getByRole('link', { name: 'Ir para o conversor' }).click();
      await waitForPath(page, '/converter');
      await page.getByText(`O AAB sai assinado com a chave "${ALIAS}"`, { exact: false }).waitFor();
      await soon(() => signBox.isDisabled(), (v) => expect(v).to.equal(false));
      // With a key stored, signing is ticked from the start; the hint follows the box.
      expect(await signBox.isChecked()).to.equal(true);
      await signBox.uncheck();
      await soon(() => page.getByTestId('sign-hint').textContent(), (v) => expect(v).to.equal('O AAB sai sem assinatura: o Google Play só o aceita depois de assinado com a sua chave de upload.'));
      await signBox.check();
      await soon(() => page.getByTestId('sign-hint').textContent(), (v) => expect(v).to.contain(`O AAB sai assinado com a chave "${ALIAS}"`));
      await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
      await page.getByTestId('chosen-file').waitFor();
      await page.getByTestId('start-conversion').click();
      await page.getByTestId('result-completed').waitFor({ timeout: 90000 });
      await page.getByTestId('result-signature').waitFor();
      await soon(() => page.getByTestId('result-signature').textContent(), (v) => expect(v).to.contain(ALIAS).and.contain(sha256));
      const downloadEvent = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Baixar AAB' }).click();
      const aab = await readFile((await (await downloadEvent).path())!);
      expect(aab.includes(Buffer.from(`META-INF/${ALIAS.toUpperCase()}.RSA`)), 'signature block in the AAB').to.equal(true);
      if (hasTool('jarsigner')) {
        const aabPath = join(dir, 'signed.aab');
        await writeFile(aabPath, aab);
        const v = spawnSync('jarsigner', ['-verify', '-strict', '-keystore', keystorePath, '-storepass', PASS, aabPath], { encoding: 'utf8' });
        expect(v.status, v.stdout + v.stderr).to.equal(0);
        expect(v.stdout).to.contain('jar verified');
      }

      // Removed after a confirmation; the converter goes back to the hint.
      await page.goto(`${ui.server.url}/account/keystore`);
      await page.getByTestId('keystore-delete').click();
      await page.getByRole('dialog').getByText('Remover chave de upload').waitFor();
      await page.getByTestId('confirm-button').click();
      await page.getByTestId('keystore-empty').waitFor();
      await page.getByText('Keystore removido da conta.').waitFor();
      expect((await api(ui.server).get('/account/keystore', token)).body).to.deep.equal({ keystore: null });
      await page.goto(`${ui.server.url}/converter`);
      await page.getByRole('link', { name: 'Cadastrar chave de upload' }).waitFor();
      await soon(() => page.getByLabel('Assinar o AAB com minha chave de upload').isDisabled(), (v) => expect(v).to.equal(true));

      // Fits a 360 px screen.
      await page.setViewportSize({ width: 360, height: 800 });
      await page.goto(`${ui.server.url}/account/keystore`);
      await page.getByTestId('keystore-form').waitFor();
      await soon(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), (v) => expect(v).to.be.at.most(0));
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
