/**
 * Hostile keystores against a real server, through real HTTP on embedded
 * Postgres: uploads that cost seconds of hashing each must neither stall the API nor pass.
 * Stalls are measured, never timed: a parallel client polls /api/health and this process (where
 * the server runs) watches its event-loop delay; both must stay under 1 s.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONVERTER_ERRORS, generateUploadKeystore } from '@aabify/converter';
import { KEYSTORE_ERROR_MESSAGES, KEYSTORE_LIMITS, KEYSTORE_MESSAGES } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { KEYTOOL_HOW_TO_GET, hasKeytool, keytoolKeystore, manyBagsPkcs12, pkcs12WithMacIterations } from '../../converter/test/helpers/keystores.js';
import { missingPrerequisite } from '../../converter/test/helpers/oracles.js';
import { encryptJson } from '../src/settings/crypto.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';
import { probeStalls } from './helpers/healthProbe.js';

type Err = { message: string; code: string };
const PASS = 'senha-do-ataque';
/** Generous: an honest request answers in milliseconds; the old code stalled for tens of seconds. */
const MAX_STALL_MS = 1000;

const put = (server: TestServer, token: string, keystore: Buffer) =>
  api(server).put<Err>('/account/keystore', { keystore: keystore.toString('base64'), storePassword: PASS }, token);

describe('keystore attacks: parsing off the event loop, caps, one per user', function () {
  this.timeout(300_000);
  let server: TestServer;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-ks-attack-'));
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('put_fourLegacyMillionIterationKeystoresAtOnce_eachRefusedCodedHealthAnswersUnder1s', async function () {
    if (!hasKeytool()) missingPrerequisite(this, KEYTOOL_HOW_TO_GET);
    const hostile = keytoolKeystore({ file: join(dir, 'legacy-1m.p12'), password: PASS, iterations: 1_000_000, legacy: true });
    const tokens = await Promise.all([1, 2, 3, 4].map(async () => tokenFor(server, await buildUser(server))));
    const probe = probeStalls(server.url);
    const answers = await Promise.all(tokens.map((t) => put(server, t, hostile)));
    const stalls = await probe.stop();
    console.log(`      four 1M-iteration legacy uploads: ${JSON.stringify(stalls)}`);
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body).to.deep.equal({ code: 'KEYSTORE_ITERATIONS', message: KEYSTORE_ERROR_MESSAGES.KEYSTORE_ITERATIONS });
    }
    expect(stalls.healthFailures).to.equal(0);
    expect(stalls.healthChecks).to.be.greaterThan(0);
    expect(stalls.worstHealthMs).to.be.below(MAX_STALL_MS);
    expect(stalls.maxEventLoopDelayMs).to.be.below(MAX_STALL_MS);
  });

  it('put_pbes2KeystoreAt100kIterations_openedOffTheMainThreadWhileHealthAnswers', async function () {
    if (!hasKeytool()) missingPrerequisite(this, KEYTOOL_HOW_TO_GET);
    const allowed = keytoolKeystore({ file: join(dir, 'pbes2-100k.p12'), password: PASS, iterations: KEYSTORE_LIMITS.maxKdfIterations });
    const token = tokenFor(server, await buildUser(server));
    const probe = probeStalls(server.url);
    const res = await put(server, token, allowed);
    const stalls = await probe.stop();
    console.log(`      one 100k-iteration PBES2 upload: ${JSON.stringify(stalls)}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.message).to.equal(KEYSTORE_MESSAGES.saved);
    expect(stalls.healthFailures).to.equal(0);
    expect(stalls.worstHealthMs).to.be.below(MAX_STALL_MS);
    expect(stalls.maxEventLoopDelayMs).to.be.below(MAX_STALL_MS);
  });

  it('put_keystoreWithMoreBagsThanTheCap_refusedTooManyEntries', async () => {
    const token = tokenFor(server, await buildUser(server));
    const res = await put(server, token, manyBagsPkcs12(KEYSTORE_LIMITS.maxBags + 1));
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal({ code: 'KEYSTORE_TOO_MANY_ENTRIES', message: KEYSTORE_ERROR_MESSAGES.KEYSTORE_TOO_MANY_ENTRIES });
  });

  it('put_twoParallelUploadsBySameUser_oneRefusedBusyOtherSaved', async () => {
    const gen = generateUploadKeystore({ password: PASS });
    const token = tokenFor(server, await buildUser(server));
    const answers = await Promise.all([put(server, token, gen.keystore), put(server, token, gen.keystore)]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(answers.map((r) => r.body))).to.deep.equal([200, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body).to.deep.include({ code: 'KEYSTORE_BUSY', message: KEYSTORE_MESSAGES.busy });
    expect(refused.headers.get('retry-after')).to.equal(String(KEYSTORE_LIMITS.openBudgetMs / 1000));
    // Once the first is done, the same user may upload again.
    expect((await put(server, token, gen.keystore)).status).to.equal(200);
  });

  it('put_sameUserOnTwoProcessesAtOnce_oneRefusedBusy', async () => {
    // A second web process on the same database: the one-per-user rule holds across processes.
    const other = await startTestServer({}, { databaseUrl: server.ctx.config.databaseUrl });
    try {
      const gen = generateUploadKeystore({ password: PASS });
      const user = await buildUser(server);
      const answers = await Promise.all([put(server, tokenFor(server, user), gen.keystore), put(other, tokenFor(other, user), gen.keystore)]);
      expect(answers.map((r) => r.status).sort(), JSON.stringify(answers.map((r) => r.body))).to.deep.equal([200, 429]);
      expect(answers.find((r) => r.status === 429)!.body).to.deep.include({ code: 'KEYSTORE_BUSY' });
      // The slot is given back when the operation ends, on whichever process ran it.
      expect((await put(other, tokenFor(other, user), gen.keystore)).status).to.equal(200);
    } finally {
      await other.stop();
    }
  });

  it('convert_storedKeystoreOverTheCaps_conversionFailsCodedCreditReturned', async () => {
    // A keystore stored before the caps existed: the conversion's worker opens it with them.
    const user = await buildCreditUser(server, 2);
    const token = tokenFor(server, user);
    const hostile = pkcs12WithMacIterations(PASS, 1_000_000);
    const secret = encryptJson({ keystore: hostile.toString('base64'), storePassword: PASS }, server.ctx.secrets.encryptionKey, `user-keystore:${user.id}`);
    await server.ctx.models.UserKeystore.create({
      userId: user.id,
      secret,
      alias: 'upload',
      format: 'PKCS12',
      keyAlgorithm: 'RSA',
      keySize: 2048,
      subject: 'CN=Upload Key',
      certificateSha1: '00',
      certificateSha256: '00',
      notAfter: new Date(Date.now() + 86_400_000),
      fileName: 'antigo.p12',
    });
    const res = await uploadBytes(server, token, buildZip(tinyApkEntries()), { options: { sign: true } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const failed = await waitForStatus(server, token, conversionIdOf(res), ['failed', 'completed'], 120_000);
    expect(failed.status).to.equal('failed');
    expect(failed.error).to.equal(CONVERTER_ERRORS.KEYSTORE_ITERATIONS);
    const row = await server.ctx.models.Conversion.findByPk(conversionIdOf(res));
    expect(row!.errorCode).to.equal('KEYSTORE_ITERATIONS');
    const after = await server.ctx.models.User.findByPk(user.id);
    expect([after!.credits, after!.creditsReserved]).to.deep.equal([2, 0]);
  });
});

describe('keystore attacks: the time budget', function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({}, { keystores: { budgetMs: 10 } });
  });
  after(async () => server?.stop());

  it('put_keystorePastTheTimeBudget_workerTerminatedKeystoreTimeout', async () => {
    // 100,000 iterations is allowed, but its MAC alone costs far more than this server's 10 ms
    // (tens of milliseconds even with the engine's one-shot hashing).
    const slow = pkcs12WithMacIterations(PASS, KEYSTORE_LIMITS.maxKdfIterations);
    const token = tokenFor(server, await buildUser(server));
    const res = await put(server, token, slow);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body).to.deep.equal({ code: 'KEYSTORE_TIMEOUT', message: KEYSTORE_MESSAGES.timedOut });
    expect((await api(server).get('/account/keystore', token)).body).to.deep.equal({ keystore: null });
  });
});
