/**
 * What a conversion leaves in storage once it can no longer produce an AAB (security review,
 * store growth): a cancelled (queued or processing) or failed conversion loses its uploaded
 * files at once — the first file and the other files of a set — while its row keeps their names
 * and sizes, and its credit comes back; the retention job catches those whose runner died; a
 * set upload that the store refuses half-way leaves nothing; retention never takes the AAB a
 * Play publication is still sending.
 */
import { expect } from 'chai';
import { purgeExpiredConversions } from '../src/conversions/retention.js';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, buildSubscriber, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { SLOW_ENGINE, conversionIdOf, statusOf, waitFor, waitForStatus } from './helpers/conversions.js';
import { api, type ApiResponse, type JsonBody } from './helpers/http.js';
import { storageKeys } from '../src/storage/index.js';
import type { Conversion, User } from '../src/models/index.js';

type Upload = { name: string; bytes: Uint8Array };

/** One conversion from several files (repeated `apk` field), as the dashboard sends a set. */
function uploadSet(server: TestServer, token: string, files: Upload[]): Promise<ApiResponse<JsonBody>> {
  const form = new FormData();
  for (const f of files) form.append('apk', new Blob([new Uint8Array(f.bytes)]), f.name);
  return api(server).request('POST', '/conversion/convert', undefined, { token, raw: form });
}

/** Starts like a zip (the upload's check passes), then nothing the engine can read. */
const junk = (size: number, fill: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size, fill)]);
const OBB: Upload = { name: 'main.1.com.exemplo.obb', bytes: Buffer.alloc(4096, 5) };

describe('conversions: files of cancelled and failed conversions, retention and publications', function () {
  this.timeout(120_000);
  let server: TestServer;
  const storage = () => server.ctx.storage;
  /** The stored input files of a set upload of two files. */
  const inputKeys = (id: string) => [storageKeys.apk(id), storageKeys.part(id, 1)];
  const sizes = (keys: string[]) => Promise.all(keys.map((k) => storage().size(k)));

  before(async () => {
    server = await startTestServer({}, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 500 } }, claimRetryMs: 100 } });
  });
  after(async () => server?.stop());
  afterEach(async () => {
    await server.ctx.settings.unset('conversions.maxConcurrent');
  });

  it('cancel_queuedAndProcessing_inputFilesDeletedMetadataKeptCreditReturned', async () => {
    await server.ctx.settings.set('conversions.maxConcurrent', 1);
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const running = conversionIdOf(await uploadSet(server, token, [{ name: 'rodando.apk', bytes: buildZip(tinyApkEntries()) }, OBB]));
    await waitForStatus(server, token, running, ['processing'], 20_000);
    const queued = conversionIdOf(await uploadSet(server, token, [{ name: 'fila.apk', bytes: buildZip(tinyApkEntries()) }, OBB]));
    expect((await statusOf(server, token, queued)).status).to.equal('queued');
    expect(await sizes(inputKeys(queued))).to.deep.equal([buildZip(tinyApkEntries()).length, OBB.bytes.length]);

    // Queued: nothing runs it, its files go before the answer.
    expect((await api(server).post(`/conversion/cancel/${queued}`, undefined, token)).status).to.equal(200);
    expect(await sizes(inputKeys(queued))).to.deep.equal([undefined, undefined]);
    const row = await server.ctx.models.Conversion.findByPk(queued, { rejectOnEmpty: true });
    expect(row.filesPurgedAt).to.be.instanceOf(Date);
    // What the history, logs and admins show stays.
    expect(row).to.include({ status: 'cancelled', fileName: 'fila.apk' });
    expect(row.inputFiles?.map((f) => f.fileName)).to.deep.equal([OBB.name]);

    // Processing: its files go once the runner has let go of them.
    expect((await api(server).post(`/conversion/cancel/${running}`, undefined, token)).status).to.equal(200);
    await waitFor(async () => ((await sizes(inputKeys(running))).every((s) => s === undefined) ? true : undefined), 15_000, 'inputs of the cancelled running conversion deleted');
    await waitFor(async () => (server.ctx.conversionRunner.activeCount === 0 ? true : undefined), 15_000, 'engine stopped');
    expect(existsSync(join(server.dataDir, 'files', 'conversions', running)), 'no folder left').to.equal(false);
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([3, 0]);
  });

  it('engineFailure_junkAfterTheZipSignature_inputFilesDeletedCreditReturned', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadSet(server, token, [{ name: 'quebrado.apk', bytes: junk(5000, 3) }, OBB]));
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([0, 1]);
    const failed = await waitForStatus(server, token, id, ['failed', 'completed'], 30_000);
    expect(failed.status).to.equal('failed');
    // The runner deletes the files, then records it: wait for the record, then look at the store.
    const row = await waitFor(async () => {
      const r = await server.ctx.models.Conversion.findByPk(id, { rejectOnEmpty: true });
      return r.filesPurgedAt ? r : undefined;
    }, 15_000, 'the failed conversion marked as without files');
    expect(await sizes(inputKeys(id))).to.deep.equal([undefined, undefined]);
    expect(row).to.include({ fileName: 'quebrado.apk', fileSize: 5004 + OBB.bytes.length });
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([1, 0]);
  });

  /** A row that ended without an AAB `minutesAgo`, its upload still stored (its runner died before deleting it). */
  async function endedWithFiles(user: User, status: 'failed' | 'cancelled', minutesAgo: number): Promise<Conversion> {
    const c = await buildConversion(server, user, { status, completedAt: new Date(Date.now() - minutesAgo * 60_000) });
    await storage().write(storageKeys.apk(c.id), Readable.from([junk(100, 1)]));
    return c.update({ apkKey: storageKeys.apk(c.id) });
  }

  it('retention_failedOrCancelledFilesLeftBehind_purgedAnHourAfterTheyEnded', async () => {
    const user = await buildSubscriber(server, 30);
    const oldFailed = await endedWithFiles(user, 'failed', 90);
    const oldCancelled = await endedWithFiles(user, 'cancelled', 61);
    const recent = await endedWithFiles(user, 'failed', 10);

    await purgeExpiredConversions(server.ctx);

    for (const c of [oldFailed, oldCancelled]) {
      expect(await storage().size(storageKeys.apk(c.id)), c.status).to.equal(undefined);
      expect((await c.reload()).filesPurgedAt).to.be.instanceOf(Date);
    }
    expect(await storage().size(storageKeys.apk(recent.id))).to.equal(104);
    expect((await recent.reload()).filesPurgedAt).to.equal(null);
  });

  it('retention_aabOfAQueuedOrProcessingPublication_keptUntilThePublicationEnds', async () => {
    const user = await buildSubscriber(server, 30);
    const c = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date(Date.now() - 30 * 86_400_000) });
    const aabKey = storageKeys.aab(c.id);
    await storage().write(aabKey, Readable.from([junk(200, 2)]));
    await c.update({ aabKey, aabSize: 204 });
    const publication = await server.ctx.models.Publication.create({
      conversionId: c.id,
      userId: user.id,
      packageName: 'com.exemplo.app',
      track: 'internal',
      releaseStatus: 'completed',
      rolloutPercent: null,
      releaseName: null,
      releaseNotes: [],
      status: 'queued',
    });

    for (const status of ['queued', 'processing'] as const) {
      await publication.update({ status });
      await purgeExpiredConversions(server.ctx);
      expect(await storage().size(aabKey), status).to.equal(204);
      expect((await c.reload()).filesPurgedAt, status).to.equal(null);
    }

    await publication.update({ status: 'completed', completedAt: new Date() });
    await purgeExpiredConversions(server.ctx);
    expect(await storage().size(aabKey)).to.equal(undefined);
    expect((await c.reload()).filesPurgedAt).to.be.instanceOf(Date);
  });

  it('setUpload_storeFailsOnTheSecondFile_theFirstIsDeletedToo', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const root = join(server.dataDir, 'files', 'conversions');
    await mkdir(root, { recursive: true });
    const before = new Set(await readdir(root));

    const answer = new Promise<{ status: number; body: JsonBody }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/conversion/convert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonBody }));
      });
      void (async () => {
        // The first file whole, and the start of the second: the first is then stored.
        req.write(`--b\r\nContent-Disposition: form-data; name="apk"; filename="base.apk"\r\n\r\n`);
        req.write(junk(64 * 1024, 1));
        req.write(`\r\n--b\r\nContent-Disposition: form-data; name="apk"; filename="split.apk"\r\n\r\n`);
        req.write(junk(1024, 2));
        const folder = await waitFor(
          async () => {
            for (const dir of await readdir(root)) if (!before.has(dir) && existsSync(join(root, dir, 'input.apk'))) return dir;
            return undefined;
          },
          15_000,
          'first file stored',
        );
        // The store refuses the second file: a directory where it would be renamed to (EISDIR),
        // as a full disk or a failing object store would.
        await mkdir(join(root, folder, 'input-1'));
        req.write(Buffer.alloc(1024, 3));
        req.end(`\r\n--b--\r\n`);
      })().catch(reject);
    });

    const res = await answer;
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ code: 'INTERNAL_ERROR', message: 'Erro interno do servidor.' });
    const folder = (await readdir(root)).find((d) => !before.has(d))!;
    await waitFor(async () => (existsSync(join(root, folder, 'input.apk')) ? undefined : true), 10_000, 'the first file deleted');
    expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(0);
    await rm(join(root, folder), { recursive: true, force: true });
  });
});
