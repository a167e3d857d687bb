/**
 * Text from a hostile APK with what Postgres refuses (a NUL, an unpaired surrogate) in what the
 * engine reports: a failure's detail, the report of a finished conversion (JSONB refuses both),
 * a log line. Each is made storable before it is written, and a failure that still cannot be
 * written is written again without its details: a conversion must never stay "processing" for
 * good, holding its credit and a slot of everyone's queue.
 */
import { expect } from 'chai';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';
import { storableJson, storableText } from '../src/db/storable.js';

describe('conversions: text Postgres refuses, from a hostile APK', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());

  it('failureDetailWithNul_conversionFailsCodedAndTheCreditComesBack', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    // A configuration split (not a base APK) whose split name carries a NUL: the refusal's detail names it.
    const apk = buildZip(tinyApkEntries({ versionCode: 1, split: 'config.\u0000xx' }));
    const id = conversionIdOf(await uploadBytes(server, token, apk, { fileName: 'dividido.apk' }));
    const done = await waitForStatus(server, token, id, ['failed', 'completed'], 60_000);
    expect(done.status).to.equal('failed');
    expect(done.errorCode).to.equal('NOT_A_BASE_APK');
    const row = await server.ctx.models.Conversion.findByPk(id, { rejectOnEmpty: true });
    expect(row.errorDetail ?? '').to.not.contain('\u0000');
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([1, 0]);
  });

  it('storable_nulAndLoneSurrogates_goneFromTextAndJson', () => {
    expect(storableText('a\u0000b\uD800c\uDC00d\uD83D\uDE00')).to.equal('ab\uFFFDc\uFFFDd\uD83D\uDE00');
    expect(storableJson({ ['k\u0000']: ['x\u0000', 1, { y: '\uDBFF' }], n: null })).to.deep.equal({ k: ['x', 1, { y: '\uFFFD' }], n: null });
  });
});
