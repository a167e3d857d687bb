import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, uploadBytes } from './helpers/conversions.js';
import { api } from './helpers/http.js';
import { purgeAbandonedUploads } from '../src/conversions/pendingUploads.js';
import { storageKeys } from '../src/storage/index.js';
import type { User } from '../src/models/index.js';

const KB = 1024;
const MB = 1024 * KB;

/** Bytes that pass the upload's zip-signature check (the two-step flow stores them unconverted). */
function zipLike(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x50, 0x4b, 0x03, 0x04]).copy(bytes);
  return bytes;
}

describe('conversions: quota and expiry of uploads not yet started', function () {
  this.timeout(120000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());
  afterEach(async () => {
    for (const key of ['upload.maxPendingUploads', 'upload.maxPendingBytes', 'upload.maxFileSize'] as const) await server.ctx.settings.unset(key);
  });

  const storage = () => server.ctx.storage;
  const upload = (user: User, bytes: Buffer) => uploadBytes(server, tokenFor(server, user), bytes, { path: '/conversion/upload' });
  /** Files in the local store (one per stored single-file upload). */
  const storedUploads = async () => (await readdir(join(server.dataDir, 'files', 'conversions'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).length;

  it('upload_userWithoutCreditOrPlan_refused402AndNothingStored', async () => {
    const before = await storedUploads();
    for (const [user, code, message] of [
      [await buildCreditUser(server, 0), 'NO_CREDITS', CONVERSION_MESSAGES.notEnoughCredits],
      [await buildUser(server), 'NO_PLAN', 'Você não possui um plano ativo. Escolha um plano para fazer conversões.'],
    ] as const) {
      const res = await upload(user, zipLike(64 * KB));
      expect(res.status, JSON.stringify(res.body)).to.equal(402);
      expect(res.body).to.include({ code, message });
      expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(0);
    }
    expect(await storedUploads()).to.equal(before);
  });

  it('upload_overTheCountCap_refused409EvenInParallel', async () => {
    await server.ctx.settings.set('upload.maxPendingUploads', 3);
    const user = await buildCreditUser(server, 1);
    const before = await storedUploads();
    // Six at once: the cap holds under the race (the user's row lock orders the count).
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(user, zipLike(32 * KB))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 201, 201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).to.include({ code: 'PENDING_UPLOADS_LIMIT', message: CONVERSION_MESSAGES.pendingUploadsLimit(3) });
      expect(r.body.message).to.equal('Você já tem 3 arquivos enviados aguardando o início da conversão. Inicie ou cancele um deles antes de enviar outro.');
    }
    expect(await server.ctx.models.Conversion.count({ where: { userId: user.id, status: 'pending' } })).to.equal(3);
    expect(await storedUploads()).to.equal(before + 3);

    // Cancelling one frees its place and its bytes at once.
    const cancelled = conversionIdOf(results.find((r) => r.status === 201)!);
    expect((await api(server).post(`/conversion/cancel/${cancelled}`, undefined, tokenFor(server, user))).status).to.equal(200);
    expect(await storage().size(storageKeys.apk(cancelled))).to.equal(undefined);
    expect((await upload(user, zipLike(32 * KB))).status).to.equal(201);
    expect((await upload(user, zipLike(32 * KB))).status).to.equal(409);
  });

  it('upload_overTheByteCap_refused409WithTheLimitInTheMessage', async () => {
    // 0 = automatic: twice upload.maxFileSize.
    await server.ctx.settings.set('upload.maxFileSize', MB);
    const user = await buildCreditUser(server, 1);
    expect((await upload(user, zipLike(900 * KB))).status).to.equal(201);
    expect((await upload(user, zipLike(900 * KB))).status).to.equal(201);
    const before = await storedUploads();
    const third = await upload(user, zipLike(900 * KB));
    expect(third.status, JSON.stringify(third.body)).to.equal(409);
    expect(third.body).to.include({ code: 'PENDING_UPLOADS_BYTES', message: CONVERSION_MESSAGES.pendingBytesLimit(2 * MB) });
    expect(third.body.message).to.contain('2MB');
    expect(await storedUploads()).to.equal(before);
    // A small one still fits under the 2 MB.
    expect((await upload(user, zipLike(100 * KB))).status).to.equal(201);

    // An explicit setting wins over the automatic value.
    await server.ctx.settings.set('upload.maxPendingBytes', 5 * MB);
    expect((await upload(user, zipLike(900 * KB))).status).to.equal(201);
  });

  it('abandonedUpload_olderThanAnHour_fileAndRowRemoved_recentAndStartedKept', async () => {
    const user = await buildCreditUser(server, 2);
    const token = tokenFor(server, user);
    const [abandoned, recent, started] = await Promise.all([0, 1, 2].map(async () => conversionIdOf(await upload(user, zipLike(16 * KB)))));
    expect((await api(server).post(`/conversion/start/${started}`, undefined, token)).status).to.equal(200);
    // Two hours old: the abandoned upload and the one that was started.
    await server.ctx.sequelize.query(`UPDATE conversions SET "createdAt" = now() - interval '2 hours' WHERE id IN (:ids)`, { replacements: { ids: [abandoned, started] } });
    expect(await storage().size(storageKeys.apk(abandoned))).to.be.a('number');

    const purged = await purgeAbandonedUploads(server.ctx, storage());

    expect(purged).to.equal(1);
    expect(await server.ctx.models.Conversion.findByPk(abandoned)).to.equal(null);
    expect(await storage().size(storageKeys.apk(abandoned))).to.equal(undefined);
    expect((await api(server).get(`/conversion/status/${abandoned}`, token)).status).to.equal(404);
    const kept = await server.ctx.models.Conversion.findByPk(recent, { rejectOnEmpty: true });
    expect(kept.status).to.equal('pending');
    expect(await storage().size(storageKeys.apk(recent))).to.equal(16 * KB);
    const converted = await server.ctx.models.Conversion.findByPk(started, { rejectOnEmpty: true });
    expect(converted.status).to.not.equal('pending');
    // Its start is what made it stay, and the credit it reserved is untouched by the purge.
    expect(converted.queuedAt).to.not.equal(null);
  });

  it('abandonedUploadsJob_runsOnItsOwnInterval', async () => {
    const fast = await startTestServer({}, { conversions: { abandonedUploadsEvery: '1 second' } });
    try {
      const user = await buildCreditUser(fast, 1);
      const id = conversionIdOf(await uploadBytes(fast, tokenFor(fast, user), zipLike(16 * KB), { path: '/conversion/upload' }));
      await fast.ctx.sequelize.query(`UPDATE conversions SET "createdAt" = now() - interval '61 minutes' WHERE id = :id`, { replacements: { id } });
      const deadline = Date.now() + 30000;
      while ((await fast.ctx.models.Conversion.findByPk(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await fast.ctx.models.Conversion.findByPk(id), 'removed by the Agenda job').to.equal(null);
      expect(await fast.ctx.storage.size(storageKeys.apk(id))).to.equal(undefined);
    } finally {
      await fast.stop();
    }
  });
});
