/**
 * Google Play publishing through the API (docs/play.md): the account's service-account key,
 * 'Testar conexão', publications of completed conversions as jobs with live events and logs,
 * every refusal of Google's mapped to its code and pt-BR message, ownership, and Admin ›
 * Conversões' listing. Google is the stand-in of converter/test/helpers/googlePlayStandIn.ts
 * (real HTTP on loopback, the documented protocol); everything else is real.
 */
import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { PLAY_ERROR_MESSAGES, PLAY_MESSAGES, PUBLICATION_SOCKET_EVENT, type ApiPublication, type PlayCredentialsMetadata, type PlayErrorCode, type PublicationLogEntry, type PublicationUpdate } from '@aabify/shared';
import { buildZip, randomish, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, STAND_IN_ERRORS, makeServiceAccount, type TestServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';
import { connected, conversionIdOf, socketFor, uploadBytes, waitFor, waitForStatus } from './helpers/conversions.js';
import { openJson } from '../src/settings/crypto.js';
import { reencryptWithCurrentKey } from '../src/settings/rotation.js';
import { playCredentialsAad } from '../src/play/credentials.js';
import { recordCompleted } from '../src/play/publicationRunner.js';

type Err = { message: string; code: string; fields?: Record<string, string> };
const PKG = 'com.aabify.play';
const CHUNK = 256 * 1024;

describe('Google Play publishing (/api/account/play-credentials, /api/publications)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let google: GooglePlayStandIn;
  let account: TestServiceAccount;
  // The tiny APK with a large incompressible asset: its AAB takes several 256 KiB PUTs.
  const apk = buildZip([...tinyApkEntries({ versionCode: 42, packageName: PKG }), { name: 'assets/big.bin', data: randomish(700_000, 3), method: 0 }]);

  before(async () => {
    google = await new GooglePlayStandIn().start();
    account = makeServiceAccount('publicador');
    server = await startTestServer(google.env, { play: { uploadChunkBytes: CHUNK } });
  });
  after(async () => {
    await server?.stop();
    await google?.stop();
  });
  beforeEach(() => {
    google.reset();
    google.addServiceAccount(account);
  });

  async function customer(): Promise<{ id: string; token: string }> {
    const user = await buildCreditUser(server, 10);
    return { id: user.id, token: tokenFor(server, user) };
  }

  async function withKey(token: string, json = account.json): Promise<void> {
    const res = await api(server).put('/account/play-credentials', { key: json }, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  /** A completed conversion of `apk`, and the SHA-256 of its AAB as stored. */
  async function completedConversion(token: string): Promise<{ id: string; aab: Buffer }> {
    const res = await uploadBytes(server, token, apk, { fileName: 'play.apk' });
    const id = conversionIdOf(res);
    await waitForStatus(server, token, id, ['completed', 'failed']);
    const dl = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(dl.status).to.equal(200);
    return { id, aab: Buffer.from(await dl.arrayBuffer()) };
  }

  async function publish(token: string, body: Record<string, unknown>) {
    return api(server).post<{ message: string; publication: ApiPublication } & Err>('/publications', body, token);
  }

  async function finished(token: string, id: string): Promise<{ publication: ApiPublication; logs: PublicationLogEntry[] }> {
    return waitFor(
      async () => {
        const r = await api(server).get<{ publication: ApiPublication; logs: PublicationLogEntry[] }>(`/publications/${id}`, token);
        return r.body.publication.status === 'completed' || r.body.publication.status === 'failed' ? r.body : undefined;
      },
      60_000,
      `publication ${id}`,
    );
  }

  it('credentials_putValidKey_storedEncryptedNeverReturnedOnlyEmailAndProjectShown', async () => {
    const { id, token } = await customer();
    const res = await api(server).put<{ message: string; credentials: PlayCredentialsMetadata }>('/account/play-credentials', { key: account.json }, token);
    expect(res.status).to.equal(200);
    expect(res.body.message).to.equal(PLAY_MESSAGES.saved);
    expect(res.body.credentials).to.include({ clientEmail: account.clientEmail, projectId: account.projectId, privateKeyId: account.privateKeyId, lastTestedAt: null });
    expect(Object.keys(res.body.credentials).sort()).to.deep.equal(['clientEmail', 'createdAt', 'lastTestedAt', 'lastTestedPackage', 'privateKeyId', 'projectId', 'updatedAt']);
    const got = await api(server).get<{ credentials: PlayCredentialsMetadata }>('/account/play-credentials', token);
    expect(got.body.credentials).to.deep.equal(res.body.credentials);
    const privateKeyBody = (JSON.parse(account.json) as { private_key: string }).private_key.split('\n')[1]!;
    expect(JSON.stringify(got.body)).to.not.contain(privateKeyBody);
    const row = await server.ctx.models.PlayCredential.findByPk(id);
    expect(JSON.stringify(row!.toJSON())).to.not.contain(privateKeyBody);
    expect(row!.secret.alg).to.equal('aes-256-gcm');
    // The ciphertext is bound to its user: on another user's id it does not open.
    expect(() => openJson(row!.secret, { current: server.ctx.secrets.encryptionKey }, playCredentialsAad(randomBytes(16).toString('hex')))).to.throw();
    // Nobody else sees it, not even an admin.
    expect((await api(server).get('/account/play-credentials', tokenFor(server, await buildAdmin(server)))).body).to.deep.equal({ credentials: null });
    expect((await api(server).delete('/account/play-credentials', token)).status).to.equal(204);
    // Nothing stored is an empty state (200, null), not an error; removing nothing is still a 404.
    const none = await api(server).get('/account/play-credentials', token);
    expect([none.status, none.body]).to.deep.equal([200, { credentials: null }]);
    expect((await api(server).delete<Err>('/account/play-credentials', token)).body).to.deep.equal({ message: PLAY_MESSAGES.notFound, code: 'PLAY_CREDENTIALS_NOT_FOUND' });
  });

  it('credentials_notAServiceAccountKey_answers422PlayKeyInvalid', async () => {
    const { token } = await customer();
    for (const key of ['{"type":"authorized_user"}', 'não é json']) {
      const res = await api(server).put<Err>('/account/play-credentials', { key }, token);
      expect(res.status).to.equal(422);
      expect(res.body).to.deep.equal({ message: PLAY_ERROR_MESSAGES.PLAY_KEY_INVALID, code: 'PLAY_KEY_INVALID' });
    }
    expect((await api(server).put<Err>('/account/play-credentials', {}, token)).body.fields).to.deep.equal({ key: PLAY_MESSAGES.keyRequired });
  });

  it('credentialsTest_grantedApp_opensAndDeletesAnEditAndRecordsTheTest', async () => {
    const { token } = await customer();
    await withKey(token);
    google.addApp(PKG);
    const res = await api(server).post<{ message: string; credentials: PlayCredentialsMetadata }>('/account/play-credentials/test', { packageName: PKG }, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.message).to.equal(PLAY_MESSAGES.testOk(PKG));
    expect(res.body.credentials.lastTestedPackage).to.equal(PKG);
    expect(google.deletedEdits).to.have.length(1);
    expect(google.commits).to.have.length(0);
  });

  it('credentialsTest_eachRefusal_answersItsCodeAndMessage', async () => {
    const { token } = await customer();
    await withKey(token);
    const test = () => api(server).post<Err>('/account/play-credentials/test', { packageName: PKG }, token);
    let res = await test();
    expect([res.status, res.body.code, res.body.message]).to.deep.equal([422, 'PLAY_APP_NOT_FOUND', PLAY_ERROR_MESSAGES.PLAY_APP_NOT_FOUND]);
    google.addApp(PKG, { grantedTo: [] });
    res = await test();
    expect([res.status, res.body.code]).to.deep.equal([422, 'PLAY_PERMISSION_DENIED']);
    google.failNext('token', STAND_IN_ERRORS.unavailable());
    res = await test();
    expect([res.status, res.body.code]).to.deep.equal([502, 'PLAY_UNAVAILABLE']);
    const res2 = await api(server).post<Err>('/account/play-credentials/test', { packageName: 'not a package' }, token);
    expect(res2.status).to.equal(400);
    expect(res2.body.fields).to.deep.equal({ packageName: PLAY_MESSAGES.packageNameInvalid });
  });

  it('recordCompleted_progressSaveStillInFlightWhenTheLastProgressCame_rowSaysCompletedAt100', async () => {
    // The race behind a row once read as completed at 90 %: a progress save sent with 90 returns
    // after the last progress (100) was set, and Sequelize then takes 100 as saved.
    const { id: userId, token } = await customer();
    const { id: conversionId } = await completedConversion(token);
    const { Publication } = server.ctx.models;
    const created = await Publication.create({ userId, conversionId, packageName: PKG, track: 'internal', releaseStatus: 'draft', releaseNotes: [], status: 'processing', progress: 80 });
    const p = (await Publication.findByPk(created.id))!;
    p.progress = 90;
    // `logging` runs once the UPDATE (with 90) is built and sent: the last progress arrives then.
    await p.save({ fields: ['progress'], logging: () => void (p.progress = 100) });
    expect((await Publication.findByPk(created.id))!.progress, 'the race reproduced').to.equal(90);
    await recordCompleted(p, { versionCode: 42, editId: 'edit-1', playResponse: { bundle: { versionCode: 42 } } });
    const stored = (await Publication.findByPk(created.id))!;
    expect([stored.status, stored.progress, stored.step, stored.versionCode]).to.deep.equal(['completed', 100, 'done', 42]);
  });

  it('publish_completedConversion_runsAsAJobWithLiveProgressAndIsRecorded', async () => {
    const { id: userId, token } = await customer();
    await withKey(token);
    const { id: conversionId, aab } = await completedConversion(token);
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 42, packageName: PKG });
    const socket = socketFor(server, token);
    const updates: PublicationUpdate[] = [];
    socket.on(PUBLICATION_SOCKET_EVENT, (u: PublicationUpdate) => updates.push(u));
    try {
      await connected(socket);
      const res = await publish(token, {
        conversionId,
        track: 'internal',
        releaseStatus: 'draft',
        releaseName: '1.0 (42)',
        releaseNotes: [{ language: 'pt-BR', text: 'Novidades desta versão' }],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.publication).to.include({ status: 'queued', track: 'internal', releaseStatus: 'draft', packageName: PKG, conversionId, userId });
      const done = await finished(token, res.body.publication.id);
      expect(done.publication).to.include({ status: 'completed', versionCode: 42, progress: 100, error: null });
      expect(done.publication.playResponse).to.have.nested.property('bundle.sha256', createHash('sha256').update(aab).digest('hex'));
      // Google received exactly the converted AAB, in several resumable PUTs.
      expect(google.uploads).to.have.length(1);
      expect(google.uploads[0]!.sha256).to.equal(createHash('sha256').update(aab).digest('hex'));
      expect(google.uploads[0]!.chunks).to.be.greaterThan(1);
      expect(google.commits[0]!.tracks.internal!.releases[0]).to.deep.equal({
        name: '1.0 (42)',
        versionCodes: ['42'],
        status: 'draft',
        releaseNotes: [{ language: 'pt-BR', text: 'Novidades desta versão' }],
      });
      expect(done.logs.map((l) => l.message).join('\n')).to.contain('versionCode 42');
      // Live: progress rose to 100 over several messages, the last says completed.
      await waitFor(() => (updates.some((u) => u.publication.status === 'completed') ? true : undefined), 10_000, 'completed event');
      const progress = updates.map((u) => u.publication.progress);
      expect(progress).to.deep.equal([...progress].sort((a, b) => a - b));
      expect(new Set(updates.map((u) => u.publication.step)).size).to.be.greaterThan(3);
      expect(updates.some((u) => u.log?.step === 'upload')).to.equal(true);
    } finally {
      socket.close();
    }
    // History of the conversion, and Admin › Conversões.
    const list = await api(server).get<{ publications: ApiPublication[] }>(`/publications?conversionId=${conversionId}`, token);
    expect(list.body.publications.map((p) => [p.track, p.status, p.versionCode])).to.deep.equal([['internal', 'completed', 42]]);
    const admin = tokenFor(server, await buildAdmin(server));
    const all = await api(server).get<{ publications: Array<ApiPublication & { userEmail: string; fileName: string }>; total: number }>(`/admin/publications?search=${PKG}`, admin);
    expect(all.status).to.equal(200);
    const row = all.body.publications.find((p) => p.conversionId === conversionId)!;
    expect(row).to.include({ fileName: 'play.apk', status: 'completed', versionCode: 42 });
    expect(row.userEmail).to.match(/@example\.com$/);
    expect((await api(server).get('/admin/publications', token)).status).to.equal(403);

    // The same versionCode again: Play refuses it; the job says so in pt-BR and drops its edit.
    const again = await publish(token, { conversionId, track: 'alpha', releaseStatus: 'completed' });
    const refused = await finished(token, again.body.publication.id);
    expect(refused.publication).to.include({ status: 'failed', errorCode: 'PLAY_VERSION_CODE_USED', error: PLAY_ERROR_MESSAGES.PLAY_VERSION_CODE_USED });
    expect(refused.logs.map((l) => l.message).join('\n')).to.contain('Version code 42 has already been used').and.contain(PLAY_MESSAGES.editDeleted);
    expect(google.openEdits).to.deep.equal([]);
  });

  it('publish_jobRunTwiceAtOnceInOneProcess_sentToGoogleOnce', async () => {
    // What the queue does when a publication's job is saved again while it is being picked up:
    // two runs of it in this process at the same moment. Only one may claim and send it.
    const { token } = await customer();
    await withKey(token);
    const { id: conversionId, aab } = await completedConversion(token);
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 42, packageName: PKG });
    const res = await publish(token, { conversionId, track: 'internal', releaseStatus: 'draft' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.publication.id;
    const job = { attrs: { data: { publicationId: id } }, schedule: () => job };
    await Promise.all([server.ctx.publicationRunner.handle(job as never), server.ctx.publicationRunner.handle(job as never)]);
    const done = await finished(token, id);
    expect(done.publication.status, done.publication.error ?? '').to.equal('completed');
    expect(google.uploads, 'bundles sent to Google').to.have.length(1);
    const row = await server.ctx.models.Publication.findByPk(id, { rejectOnEmpty: true });
    expect(row.attempts, 'runs of the publication').to.equal(1);
  });

  it('publish_eachGoogleRefusal_failsWithItsCodeKeepsGooglesMessageAndDeletesTheEdit', async () => {
    const { token } = await customer();
    await withKey(token);
    const { id: conversionId, aab } = await completedConversion(token);
    const cases: Array<[PlayErrorCode, () => void, Record<string, unknown>?]> = [
      ['PLAY_APP_NOT_FOUND', () => undefined],
      ['PLAY_PERMISSION_DENIED', () => google.addApp(PKG, { grantedTo: [] })],
      ['PLAY_PACKAGE_MISMATCH', () => (google.addApp(PKG), google.expectBundle(aab, { versionCode: 42, packageName: 'com.outro.app' }))],
      ['PLAY_UPLOAD_KEY_MISMATCH', () => (google.addApp(PKG, { uploadKeySha256: 'CD'.repeat(32) }), google.expectBundle(aab, { versionCode: 42, packageName: PKG }))],
      ['PLAY_TRACK_NOT_FOUND', () => (google.addApp(PKG), google.expectBundle(aab, { versionCode: 42, packageName: PKG })), { track: 'qa-fechado' }],
      ['PLAY_QUOTA_EXCEEDED', () => (google.addApp(PKG), google.expectBundle(aab, { versionCode: 42, packageName: PKG }), google.failNext('commit', STAND_IN_ERRORS.quota()))],
    ];
    for (const [code, arrange, over] of cases) {
      google.reset();
      google.addServiceAccount(account);
      arrange();
      const res = await publish(token, { conversionId, track: 'internal', releaseStatus: 'draft', ...over });
      expect(res.status, code).to.equal(201);
      const done = await finished(token, res.body.publication.id);
      expect(done.publication, code).to.include({ status: 'failed', errorCode: code, error: PLAY_ERROR_MESSAGES[code], versionCode: null });
      expect(done.logs.some((l) => l.level === 'error' && l.message.startsWith('Google Play: HTTP')), `${code}: Google's message in the logs`).to.equal(true);
      expect(google.commits, code).to.have.length(0);
      expect(google.openEdits, `${code}: edit deleted`).to.deep.equal([]);
    }
    if (google.deletedEdits.length === 0) throw new Error('the last case opened an edit and must have deleted it');
  });

  it('publish_refusedBeforeAJob_noKeyNotCompletedOthersConversionBadRelease', async () => {
    const owner = await customer();
    const { id: conversionId } = await completedConversion(owner.token);
    // No key yet: 409.
    let res = await publish(owner.token, { conversionId, track: 'internal' });
    expect([res.status, res.body.code]).to.deep.equal([409, 'PLAY_CREDENTIALS_REQUIRED']);
    await withKey(owner.token);
    // Another user's conversion: 404 as if it did not exist, for publishing and for its history.
    const other = await customer();
    await withKey(other.token);
    res = await publish(other.token, { conversionId, track: 'internal' });
    expect([res.status, res.body.code]).to.deep.equal([404, 'CONVERSION_NOT_FOUND']);
    expect((await api(server).get(`/publications?conversionId=${conversionId}`, other.token)).status).to.equal(404);
    // Even an admin cannot publish someone else's conversion (it would use the admin's key).
    const admin = await buildAdmin(server);
    await withKey(tokenFor(server, admin));
    expect((await publish(tokenFor(server, admin), { conversionId, track: 'internal' })).status).to.equal(404);
    // Rollout without inProgress, inProgress without a percent, a bad track name.
    res = await publish(owner.token, { conversionId, track: 'internal', releaseStatus: 'completed', rolloutPercent: 10 });
    expect(res.body.fields).to.deep.equal({ rolloutPercent: PLAY_MESSAGES.rolloutOnlyInProgress });
    res = await publish(owner.token, { conversionId, track: 'production', releaseStatus: 'inProgress' });
    expect(res.body.fields).to.deep.equal({ rolloutPercent: PLAY_MESSAGES.rolloutRequired });
    res = await publish(owner.token, { conversionId, track: '../x' });
    expect(res.body.fields).to.deep.equal({ track: PLAY_MESSAGES.trackInvalid });
    // A failed conversion is not publishable.
    const failed = conversionIdOf(await uploadBytes(server, owner.token, buildZip([{ name: 'AndroidManifest.xml', data: 'não é XML binário' }]), { fileName: 'x.apk' }));
    await waitForStatus(server, owner.token, failed, ['failed']);
    res = await publish(owner.token, { conversionId: failed, track: 'internal' });
    expect([res.status, res.body.code]).to.deep.equal([409, 'CONVERSION_NOT_PUBLISHABLE']);
    // A publication of another user is 404.
    google.addApp(PKG);
    const mine = await publish(owner.token, { conversionId, track: 'internal' });
    expect((await api(server).get(`/publications/${mine.body.publication.id}`, other.token)).status).to.equal(404);
    await finished(owner.token, mine.body.publication.id);
  });

  it('rotation_previousEncryptionKey_playKeysAreResealedWithTheCurrentOne', async () => {
    const { id, token } = await customer();
    await withKey(token);
    const before = (await server.ctx.models.PlayCredential.findByPk(id))!.secret;
    const next = randomBytes(32).toString('base64');
    const count = await reencryptWithCurrentKey(server.ctx.sequelize, { current: next, previous: server.ctx.secrets.encryptionKey }, pino({ level: 'silent' }));
    expect(count).to.be.greaterThan(0);
    const after = (await server.ctx.models.PlayCredential.findByPk(id))!.secret;
    expect(after).to.not.deep.equal(before);
    const opened = openJson(after, { current: next }, playCredentialsAad(id));
    expect(opened.stale).to.equal(false);
    expect((opened.value as { client_email: string }).client_email).to.equal(account.clientEmail);
    // Put the test key back for the other rows of this database.
    await reencryptWithCurrentKey(server.ctx.sequelize, { current: server.ctx.secrets.encryptionKey, previous: next }, pino({ level: 'silent' }));
  });

  it('credentials_userWithoutPlan_mayStoreAKey', async () => {
    // A user without a plan can still store a key (publishing needs only a completed conversion).
    const token = tokenFor(server, await buildUser(server));
    await withKey(token);
  });
});
