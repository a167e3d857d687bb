/**
 * Per-user caps found by the security review: conversions in the queue (queued + processing,
 * setting conversions.maxActivePerUser) for everyone, subscribers included, on both ways in
 * (POST /convert and upload-then-start): 429 TOO_MANY_ACTIVE_CONVERSIONS with no row and no
 * credit moved, room again once one ends; and unexpired download links per user: 429
 * TOO_MANY_DOWNLOAD_LINKS until one expires.
 */
import { randomBytes } from 'node:crypto';
import { readConversionSettings } from '../src/conversions/settings.js';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, type AdminConfigResponse, type DownloadTokenResponse } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildAdmin, buildCreditUser, buildSubscriber, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { SLOW_ENGINE, conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';
import { api } from './helpers/http.js';
import { hashDownloadToken } from '../src/conversions/downloads.js';
import type { Conversion, User } from '../src/models/index.js';

type Err = { message: string; code: string; retryAfter?: number; details?: Record<string, number> };

describe('conversions: per-user caps on queued conversions and download links', function () {
  this.timeout(120_000);
  let server: TestServer;
  const apk = buildZip(tinyApkEntries());

  before(async () => {
    // Slow enough that conversions stay queued or processing while a test looks.
    server = await startTestServer({}, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 400 } }, claimRetryMs: 100 } });
  });
  after(async () => server?.stop());
  afterEach(async () => {
    if (!server.ctx.queue.isActiveJobProcessor()) await server.ctx.queue.start();
    await server.ctx.settings.unset('conversions.maxActivePerUser');
    await server.ctx.settings.unset('conversions.maxConcurrent');
  });

  const convert = (token: string, name = 'app.apk') => uploadBytes(server, token, apk, { fileName: name });
  const active = (user: User) => server.ctx.models.Conversion.count({ where: { userId: user.id, status: ['queued', 'processing'] } });

  describe('conversions in the queue (conversions.maxActivePerUser)', () => {
    it('convert_subscriberAtTheCap_429CodedNoRowThenRoomAgainOnceOneEnds', async () => {
      await server.ctx.settings.set('conversions.maxActivePerUser', 3);
      await server.ctx.settings.set('conversions.maxConcurrent', 1);
      const user = await buildSubscriber(server, 30);
      const token = tokenFor(server, user);
      // Nothing starts until the queue runs again: what is counted stays put while the test looks.
      await server.ctx.queue.stop(false);
      // Five at once: the user's row lock counts them one after the other.
      const results = await Promise.all([0, 1, 2, 3, 4].map((i) => convert(token, `p${i}.apk`)));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 201, 201, 429, 429]);
      const refused = results.find((r) => r.status === 429)!;
      expect(refused.body).to.deep.include({ code: 'TOO_MANY_ACTIVE_CONVERSIONS', message: CONVERSION_MESSAGES.tooManyActiveConversions(3) });
      expect(refused.body.message).to.equal(
        'Você já tem 3 conversões na fila ou em processamento, o máximo permitido por vez. Aguarde uma delas terminar (ou cancele uma) antes de enviar outra.',
      );
      expect((refused.body as Err).retryAfter).to.equal(CONVERSION_LIMITS.activeConversionsRetryAfterSeconds);
      expect(refused.headers.get('retry-after')).to.equal(String(CONVERSION_LIMITS.activeConversionsRetryAfterSeconds));
      expect((refused.body as Err).details).to.deep.equal({ activeConversions: 3, maxActiveConversions: 3 });
      expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(3);

      // A cancelled one frees its place at once.
      const ids = results.filter((r) => r.status === 201).map(conversionIdOf);
      expect((await api(server).post(`/conversion/cancel/${ids[2]}`, undefined, token)).status).to.equal(200);
      const again = await convert(token, 'depois-do-cancelamento.apk');
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect((await convert(token)).status).to.equal(429);

      // So does a finished one.
      await server.ctx.queue.start();
      await waitForStatus(server, token, ids[0]!, ['completed'], 30_000);
      expect(await active(user)).to.be.below(3);
      expect((await convert(token, 'depois-da-conclusao.apk')).status).to.equal(201);
    });

    it('convert_creditUserAtTheCap_noCreditMovedAndAdminsAreCappedToo', async () => {
      await server.ctx.settings.set('conversions.maxActivePerUser', 1);
      await server.ctx.settings.set('conversions.maxConcurrent', 1);
      const user = await buildCreditUser(server, 5);
      const token = tokenFor(server, user);
      expect((await convert(token)).status).to.equal(201);
      const refused = await convert(token);
      expect(refused.status).to.equal(429);
      expect(refused.body.code).to.equal('TOO_MANY_ACTIVE_CONVERSIONS');
      await user.reload();
      expect([user.credits, user.creditsReserved]).to.deep.equal([4, 1]);
      expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(1);

      // Admins are held by the other per-user limits too (concurrentPerUser, pending uploads).
      const admin = await buildAdmin(server);
      const adminToken = tokenFor(server, admin);
      expect((await convert(adminToken)).status).to.equal(201);
      expect((await convert(adminToken)).body.code).to.equal('TOO_MANY_ACTIVE_CONVERSIONS');
    });

    it('start_twoStepAtTheCap_429AndTheUploadStaysPendingUntilThereIsRoom', async () => {
      await server.ctx.settings.set('conversions.maxActivePerUser', 1);
      await server.ctx.settings.set('conversions.maxConcurrent', 1);
      const user = await buildCreditUser(server, 5);
      const token = tokenFor(server, user);
      const running = conversionIdOf(await convert(token, 'rodando.apk'));
      // Stored, not started: it is not counted (the pending-upload quota bounds it).
      const pending = conversionIdOf(await uploadBytes(server, token, apk, { path: '/conversion/upload' }));
      const start = () => api(server).post<Err>(`/conversion/start/${pending}`, undefined, token);

      const refused = await start();
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.include({ code: 'TOO_MANY_ACTIVE_CONVERSIONS', message: CONVERSION_MESSAGES.tooManyActiveConversions(1) });
      const row = await server.ctx.models.Conversion.findByPk(pending, { rejectOnEmpty: true });
      expect([row.status, row.creditState]).to.deep.equal(['pending', 'none']);
      await user.reload();
      expect([user.credits, user.creditsReserved]).to.deep.equal([4, 1]);

      expect((await api(server).post(`/conversion/cancel/${running}`, undefined, token)).status).to.equal(200);
      const started = await start();
      expect(started.status, JSON.stringify(started.body)).to.equal(200);
      await user.reload();
      expect([user.credits, user.creditsReserved]).to.deep.equal([4, 1]);
    });

    it('setting_listedInAdminConfigWithItsDefaultAndRangeChecked', async () => {
      const adminToken = tokenFor(server, await buildAdmin(server));
      const list = await api(server).get<AdminConfigResponse>('/admin/config', adminToken);
      const entry = list.body.configs.find((c) => c.key === 'conversions.maxActivePerUser');
      expect(entry).to.include({ value: 10, source: 'default', group: 'Conversões', title: 'Conversões na fila por cliente' });
      for (const value of [0, 1001]) {
        const res = await api(server).put<Err>('/admin/config/conversions.maxActivePerUser', { value }, adminToken);
        expect(res.status, String(value)).to.equal(400);
        expect(res.body).to.include({ code: 'VALIDATION_ERROR', message: 'Valor deve estar entre 1 e 1000' });
      }
      expect((await api(server).put('/admin/config/conversions.maxActivePerUser', { value: 25 }, adminToken)).status).to.equal(200);
      expect((await readConversionSettings(server.ctx.settings)).maxActivePerUser).to.equal(25);
    });
  });

  describe('download links (CONVERSION_LIMITS.downloadTokensPerUser)', () => {
    const AAB = Buffer.from('PK\x03\x04 um aab de teste');

    async function completedWithFile(user: User): Promise<Conversion> {
      const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date() });
      const aabKey = `testes/${conversion.id}/app.aab`;
      await server.ctx.storage.write(aabKey, Readable.from([AAB]));
      return conversion.update({ aabKey, aabSize: AAB.length });
    }

    /** Unexpired links already minted by `user` (rows as POST /generate-download-token writes them). */
    async function mintedBefore(user: User, conversion: Conversion, count: number, expiresInMs = 3_600_000): Promise<void> {
      await server.ctx.models.DownloadToken.bulkCreate(
        Array.from({ length: count }, () => ({
          tokenHash: hashDownloadToken(randomBytes(32).toString('base64url')),
          conversionId: conversion.id,
          userId: user.id,
          credential: { method: 'jwt' as const, userId: user.id, tokenVersion: user.tokenVersion },
          expiresAt: new Date(Date.now() + expiresInMs),
        })),
      );
    }

    it('generate_pastTheCap_429CodedOnEveryWayIn_thenRoomOnceOneExpires', async () => {
      const user = await buildSubscriber(server, 30);
      const token = tokenFor(server, user);
      const conversion = await completedWithFile(user);
      const max = CONVERSION_LIMITS.downloadTokensPerUser;
      // The oldest expires in 10 minutes: the wait the refusal gives.
      await mintedBefore(user, conversion, 1, 600_000);
      await mintedBefore(user, conversion, max - 2);
      // Expired links do not count.
      await mintedBefore(user, conversion, 5, -1000);

      const last = await api(server).post<DownloadTokenResponse>(`/download/generate-download-token/${conversion.id}`, undefined, token);
      expect(last.status, JSON.stringify(last.body)).to.equal(200);
      expect((await fetch(`${server.url}/api/download/file/${last.body.downloadToken}`)).status).to.equal(200);

      for (const path of [`/download/generate-download-token/${conversion.id}`, `/conversion/generate-download-link/${conversion.id}`]) {
        const res = await api(server).post<Err>(path, undefined, token);
        expect(res.status, path).to.equal(429);
        expect(res.body, path).to.deep.include({ code: 'TOO_MANY_DOWNLOAD_LINKS', message: CONVERSION_MESSAGES.tooManyDownloadLinks });
        expect(res.body.retryAfter, path).to.be.within(590, 600);
      }
      expect(CONVERSION_MESSAGES.tooManyDownloadLinks).to.equal(
        'Você gerou links de download demais na última hora (no máximo 100 válidos ao mesmo tempo). Use um link já gerado ou aguarde alguns minutos e tente de novo.',
      );
      expect(await server.ctx.models.DownloadToken.count({ where: { userId: user.id } })).to.equal(max + 5);
      // The links already made still work; another user is not held by this one's links.
      expect((await fetch(`${server.url}/api/download/file/${last.body.downloadToken}`)).status).to.equal(200);
      const other = await buildSubscriber(server, 30);
      expect((await api(server).post(`/download/generate-download-token/${(await completedWithFile(other)).id}`, undefined, tokenFor(server, other))).status).to.equal(200);

      // One expires: one more may be made.
      await server.ctx.sequelize.query(
        `UPDATE download_tokens SET "expiresAt" = now() - interval '1 second' WHERE "tokenHash" = (SELECT "tokenHash" FROM download_tokens WHERE "userId" = :userId AND "expiresAt" > now() ORDER BY "expiresAt" LIMIT 1)`,
        { replacements: { userId: user.id } },
      );
      expect((await api(server).post(`/conversion/generate-download-link/${conversion.id}`, undefined, token)).status).to.equal(200);
      expect((await api(server).post(`/conversion/generate-download-link/${conversion.id}`, undefined, token)).status).to.equal(429);
    });

    it('generate_parallelCallsNearTheCap_exactlyTheRoomLeftIsGiven', async () => {
      const user = await buildSubscriber(server, 30);
      const token = tokenFor(server, user);
      const conversion = await completedWithFile(user);
      await mintedBefore(user, conversion, CONVERSION_LIMITS.downloadTokensPerUser - 3);
      const results = await Promise.all(Array.from({ length: 6 }, () => api(server).post(`/download/generate-download-token/${conversion.id}`, undefined, token)));
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 429, 429, 429]);
    });
  });
});
