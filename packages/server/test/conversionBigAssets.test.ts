/**
 * A big game through the service: upload.maxFileSize 0 (no limit), a 300 MB APK of
 * incompressible assets (made in a temp folder, never committed) streamed up with the option
 * `assetPacks` — the conversion completes, the report lists the base under Play's 200 MB and the
 * assets in the pack, and the AAB downloaded from the API is accepted by `bundletool validate`.
 * Bad `assetPacks`/`assetDelivery` options are a 400 in pt-BR.
 */
import { expect } from 'chai';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAY_LIMITS } from '@aabify/converter';
import type { ConversionReportJson } from '@aabify/shared';
import { writeBigAssetsApk } from '../../converter/test/helpers/bigApk.js';
import { requireOracles } from '../../converter/test/helpers/oracles.js';
import { validateBundle } from '../../converter/test/oracle/tools.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildSubscriber, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitForStatus } from './helpers/conversions.js';
import { api } from './helpers/http.js';

describe('conversions: a 300 MB game with an asset pack', function () {
  this.timeout(5 * 60_000);
  let server: TestServer;
  let dir = '';
  before(async () => {
    server = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'aabify-big-srv-'));
  });
  after(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('convert_badAssetPackOptions_400InPtBr', async function () {
    requireCorpus(this);
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const bad = await uploadApk(server, token, corpusApk('jx-small.apk'), { options: { assetPacks: [{ name: '9x', glob: '**' }] } });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.include({ code: 'INVALID_OPTIONS', message: 'O nome do pacote de assets deve começar por letra e ter só letras, números e _ (até 50).' });
    const delivery = await uploadApk(server, token, corpusApk('jx-small.apk'), { options: { assetDelivery: 'amanhã' } });
    expect(delivery.status).to.equal(400);
    expect(delivery.body).to.include({ message: 'A entrega deve ser install-time, fast-follow ou on-demand.' });
  });

  it('convert_300MbApkNoSizeLimitWithAssetPack_completedAndBundletoolAccepts', async function () {
    requireCorpus(this);
    const o = requireOracles(this, 'java', 'bundletoolJar');
    await server.ctx.settings.set('upload.maxFileSize', 0);
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const apk = join(dir, 'game.apk');
    writeBigAssetsApk(corpusApk('jx-small.apk'), apk, 300);
    const form = new FormData();
    form.append('options', JSON.stringify({ assetPacks: [{ name: 'media', glob: 'media/**' }] }));
    form.append('apk', await openAsBlob(apk, { type: 'application/vnd.android.package-archive' }), 'game.apk');
    const res = await api(server).request('POST', '/conversion/convert', undefined, { token, raw: form });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed'], 180_000);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    const modules = (done.report as ConversionReportJson).modules ?? [];
    const byName = new Map(modules.map((m) => [m.name, m]));
    expect(byName.get('base')!.sizeBytes).to.be.lessThan(PLAY_LIMITS.baseModule.bytes);
    expect(byName.get('media')).to.include({ kind: 'asset-pack', delivery: 'install-time' });
    expect(byName.get('media')!.sizeBytes).to.be.greaterThan(300 * 1024 * 1024);
    const download = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).to.equal(200);
    const aab = join(dir, 'game.aab');
    await writeFile(aab, Buffer.from(await download.arrayBuffer()));
    await validateBundle(o, aab);
    await server.ctx.settings.unset('upload.maxFileSize');
  });
});
