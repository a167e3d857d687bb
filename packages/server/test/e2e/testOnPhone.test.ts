/**
 * "Testar no celular" in a real browser against a real server and the real engine: a corpus APK
 * converted on the converter page, the result's 'Testar no celular', the signer said plainly (the
 * test key: no upload key is stored), and the APK downloaded from the page: Debian's apksigner
 * verifies it (v2 and v3) and it equals, entry by entry (`aapt2 dump` for resources and XML),
 * the universal APK Google's bundletool builds from the AAB the same conversion produced.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_APK_MESSAGES } from '@aabify/shared';
import { requireOracles, type Oracles } from '../../../converter/test/helpers/oracles.js';
import { apksignerVerify, compareApks } from '../../../converter/test/oracle/apksCompare.js';
import { buildUniversalApk } from '../../../converter/test/oracle/tools.js';
import { soon } from '../helpers/browser.js';
import { buildCreditUser, tokenFor } from '../helpers/factories.js';
import { corpusApk, requireCorpus } from '../helpers/conversions.js';
import { openPage, sessionOf, shootBoth, useDashboardSuite } from './dashboardHelpers.js';

const APK = 'jx-small.apk';

describe('dashboard: Testar no celular in a real browser', function () {
  this.timeout(180_000);
  let dir: string;
  let oracles: Pick<Oracles, 'java' | 'bundletoolJar' | 'aapt2' | 'apksigner'>;

  before(async function () {
    requireCorpus(this);
    oracles = requireOracles(this, 'java', 'bundletoolJar', 'aapt2', 'apksigner');
    dir = await mkdtemp(join(tmpdir(), 'aabify-e2e-test-apk-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const ui = useDashboardSuite();

  it('converter_testarNoCelular_downloadedApkVerifiesAndEqualsBundletoolsUniversalApk', async () => {
    const owner = await buildCreditUser(ui.server, 3);
    const token = tokenFor(ui.server, owner);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, owner) });
    await page.goto(`${ui.server.url}/converter`);
    await page.getByTestId('ready').waitFor();
    await page.getByTestId('file-input').setInputFiles(corpusApk(APK));
    await page.getByTestId('chosen-file').waitFor();
    await page.getByTestId('start-conversion').click();
    await page.getByTestId('result-completed').waitFor({ timeout: 90_000 });

    await page.getByRole('button', { name: 'Testar no celular' }).click();
    await page.getByTestId('test-apk-ready').waitFor({ timeout: 60_000 });
    await soon(() => page.getByTestId('test-apk-signer').textContent(), (v) => expect(v).to.equal(TEST_APK_MESSAGES.signedWithTestKey));
    // No PUBLIC_URL here: the page shows the link itself, made absolute from the page's origin.
    expect(await page.getByTestId('test-apk-link').textContent()).to.match(new RegExp(`^${ui.server.url}/api/download/file/`));
    await shootBoth(page, 'converter-test-on-phone');

    const downloadEvent = page.waitForEvent('download');
    await page.getByTestId('test-apk-download').click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).to.equal('jx-small-teste.apk');
    const apk = join(dir, 'ours.apk');
    await writeFile(apk, await readFile((await download.path())!));

    const verdict = await apksignerVerify(oracles.apksigner, apk);
    expect(verdict.verifies, verdict.output).to.equal(true);
    expect(verdict.v2 && verdict.v3, verdict.output).to.equal(true);

    // bundletool's universal APK of the very AAB this conversion produced.
    const history = await ui.server.ctx.models.Conversion.findAll({ where: { userId: owner.id } });
    expect(history).to.have.length(1);
    const res = await fetch(`${ui.server.url}/api/conversion/download/${history[0]!.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(200);
    const aab = join(dir, 'app.aab');
    await writeFile(aab, Buffer.from(await res.arrayBuffer()));
    const theirs = await buildUniversalApk(oracles, aab, join(dir, 'bundletool'));
    expect(await compareApks(oracles.aapt2, theirs, apk)).to.deep.equal([]);

    expect(errors).to.deep.equal([]);
    await context.close();
  });
});
