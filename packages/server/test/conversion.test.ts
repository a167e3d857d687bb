import { expect } from 'chai';
import pg from 'pg';
import { readFile } from 'node:fs/promises';
import { purgeExpiredConversions } from '../src/conversions/retention.js';
import { EventSource } from 'eventsource';
import type { ApiConversion, ConversionHistoryResponse, ConversionUpdate, UsageInfo } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { appendLog, trimLogs } from '../src/conversions/logs.js';
import { buildAdmin, buildCreditUser, buildSubscriber, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import {
  SLOW_ENGINE,
  collect,
  connected,
  conversionIdOf,
  corpusApk,
  request,
  requireCorpus,
  socketFor,
  statusOf,
  uploadApk,
  sleep,
  uploadBytes,
  waitFor,
  waitForStatus,
} from './helpers/conversions.js';

describe('conversions: lifecycle, events, downloads, history, usage', function () {
  this.timeout(120000);
  let server: TestServer;

  before(async function () {
    requireCorpus(this);
    server = await startTestServer({}, { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 150 } }, claimRetryMs: 200 } });
  });
  after(async () => {
    await server?.stop();
  });

  it('convert_serverAlone_theSocketGetsEveryMessage_noneGoesThroughTheDatabase', async () => {
    // What the adapter publishes (NOTIFY on its channel): a process alone sends only its heartbeats.
    const watcher = new pg.Client({ connectionString: server.ctx.config.databaseUrl! });
    await watcher.connect();
    const published: Array<{ type: number }> = [];
    watcher.on('notification', (n) => published.push(JSON.parse(n.payload ?? '{}') as { type: number }));
    await watcher.query('LISTEN "socket.io#/"');
    try {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const socket = socketFor(server, token);
      await connected(socket);
      const created = new Promise<{ conversionId: string }>((resolve) => socket.once('conversion-created', resolve));
      const messages: ConversionUpdate[] = [];
      socket.onAny((event: string, msg: ConversionUpdate) => {
        if (event.startsWith('conversion:')) messages.push(msg);
      });
      const res = await uploadApk(server, token, corpusApk('diva.apk'));
      const id = conversionIdOf(res);
      expect((await created).conversionId).to.equal(id);
      expect(await request(socket, 'subscribe-conversion', { conversionId: id })).to.deep.equal({ success: true, conversionId: id });
      await waitForStatus(server, token, id, ['completed', 'failed']);
      await waitFor(() => (messages.some((m) => m.type === 'completed') ? true : undefined), 10000, 'completed message');
      socket.close();
      expect(messages.filter((m) => m.type === 'log').length).to.be.greaterThan(0);
      // socket.io-adapter's message types: 1 and 2 are heartbeats.
      expect(published.filter((m) => m.type !== 1 && m.type !== 2)).to.deep.equal([]);
    } finally {
      await watcher.end();
    }
  });

  it('convert_creditUser_emitsEventsInOrderCompletesAndSpendsTheCredit', async () => {
    const user = await buildCreditUser(server, 2);
    const token = tokenFor(server, user);
    const socket = socketFor(server, token);
    await connected(socket);
    const created = new Promise<{ conversionId: string; fileName: string; fileSize: number }>((resolve) => socket.once('conversion-created', resolve));
    const messages: ConversionUpdate[] = [];
    socket.onAny((event: string, msg: ConversionUpdate) => {
      if (event.startsWith('conversion:')) messages.push(msg);
    });

    const res = await uploadApk(server, token, corpusApk('diva.apk'), { options: { splits: { abi: true, language: false } } });
    expect(res.status).to.equal(201);
    const id = conversionIdOf(res);
    expect(res.body).to.include({ conversionId: id, fileName: 'diva.apk', fileSize: 1475989, message: 'Conversão iniciada com sucesso' });
    expect(res.body.queuePosition).to.be.a('number');
    expect(res.body.estimatedTime).to.be.a('number');
    expect(await created).to.deep.equal({ conversionId: id, fileName: 'diva.apk', fileSize: 1475989 });
    expect(await request(socket, 'subscribe-conversion', { conversionId: id })).to.deep.equal({ success: true, conversionId: id });

    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, done.error ?? '').to.equal('completed');
    await waitFor(() => (messages.some((m) => m.type === 'completed') ? true : undefined), 10000, 'completed message');
    socket.close();

    // In order: statuses only move forward, progress never goes back, completed is last.
    const rank: Record<string, number> = { pending: 0, queued: 1, processing: 2, completed: 3 };
    let lastRank = 0;
    let lastProgress = 0;
    for (const m of messages) {
      expect(m.conversionId).to.equal(id);
      if (m.status && m.type !== 'log') {
        expect(rank[m.status], `${m.type} ${m.status} after rank ${lastRank}`).to.be.at.least(lastRank);
        lastRank = rank[m.status]!;
      }
      if (typeof m.progress === 'number' && m.type !== 'status_change') {
        expect(m.progress).to.be.at.least(lastProgress);
        lastProgress = m.progress;
      }
    }
    const types = messages.map((m) => m.type);
    expect(types).to.include.members(['status_change', 'progress', 'log', 'completed']);
    expect(messages.filter((m) => m.type === 'status_change').map((m) => m.status)).to.include('processing');
    const progress = messages.filter((m) => m.type === 'progress');
    expect(progress.every((m) => typeof m.step === 'string' && typeof m.message === 'string')).to.equal(true);
    const log = messages.find((m) => m.type === 'log')!.log!;
    expect(log).to.have.keys(['id', 'timestamp', 'level', 'message', 'step']);
    const completed = messages[messages.length - 1]!;
    expect(completed).to.include({ type: 'completed', status: 'completed', progress: 100, filename: 'diva.aab', canDownload: true, expiresIn: 3600 });
    expect(completed.fileSize).to.equal(done.convertedSize);

    // The status answer carries the report, sizes and times.
    expect(done).to.include({ progress: 100, canDownload: true, filename: 'diva.aab', originalSize: 1475989, queuePosition: null });
    expect(done.report!.packageName).to.equal('jakhar.aseem.diva');
    expect(done.report!.abis).to.include('arm64-v8a');
    expect(done.report).to.not.have.any.keys('input', 'output');
    expect(done.options).to.deep.equal({ splits: { abi: true, language: false } });
    expect(done.duration).to.be.a('number').and.to.be.above(0);

    // Credit spent: reserved at submission, spent at completion.
    await user.reload();
    expect({ credits: user.credits, reserved: user.creditsReserved, count: user.conversionsCount }).to.deep.equal({ credits: 1, reserved: 0, count: 1 });

    // Logs: every stage wrote entries, in order.
    const logs = await api(server).get<{ logs: Array<{ level: string; step: string; message: string; timestamp: string }> }>(`/conversion/logs/${id}`, token);
    expect(logs.status).to.equal(200);
    const steps = logs.body.logs.map((l) => l.step);
    expect(steps).to.include.members(['upload', 'queue', 'reading', 'done']);
    expect(logs.body.logs[logs.body.logs.length - 1]!.level).to.equal('success');

    // Download: whole file, then a range, with the .aab name.
    const whole = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(whole.status).to.equal(200);
    expect(whole.headers.get('content-length')).to.equal(String(done.convertedSize));
    expect(whole.headers.get('content-disposition')).to.contain('filename="diva.aab"');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).to.equal('504b0304');
  });

  it('downloadToken_rangeRequests_resumeAndAnswer416OutsideTheFile', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadApk(server, token, corpusApk('jx-small.apk')));
    const done = await waitForStatus(server, token, id, ['completed']);
    const size = done.convertedSize!;

    const t = await api(server).post<{ downloadToken: string; filename: string; downloadUrl: string; expiresIn: number }>(`/download/generate-download-token/${id}`, undefined, token);
    expect(t.status).to.equal(200);
    expect(t.body.filename).to.equal('jx-small.aab');
    expect(t.body.expiresIn).to.equal(3600);
    // Without PUBLIC_URL the link is a path on the server the client called.
    expect(t.body.downloadUrl).to.equal(`/api/download/file/${t.body.downloadToken}`);
    const url = new URL(t.body.downloadUrl, server.url).href;

    const full = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(full.length).to.equal(size);
    const head = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(head.status).to.equal(206);
    expect(head.headers.get('content-range')).to.equal(`bytes 0-99/${size}`);
    expect(head.headers.get('content-length')).to.equal('100');
    const tail = await fetch(url, { headers: { range: 'bytes=100-' } });
    expect(tail.status).to.equal(206);
    const resumed = Buffer.concat([Buffer.from(await head.arrayBuffer()), Buffer.from(await tail.arrayBuffer())]);
    expect(resumed.equals(full)).to.equal(true);
    const suffix = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(full.subarray(size - 10))).to.equal(true);
    const outside = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect(outside.status).to.equal(416);
    expect(outside.headers.get('content-range')).to.equal(`bytes */${size}`);

    // The link of generate-download-link and temp-download with the token work too.
    const link = await api(server).post<{ downloadLink: string; downloadToken: string }>(`/conversion/generate-download-link/${id}`, undefined, token);
    expect(link.status).to.equal(200);
    expect((await fetch(new URL(link.body.downloadLink, server.url))).status).to.equal(200);
    expect((await fetch(`${server.url}/api/conversion/temp-download/${id}?token=${link.body.downloadToken}`)).status).to.equal(200);

    // An hour later the token no longer opens the file.
    await server.ctx.models.DownloadToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: {} });
    const expired = await api(server).get(`/download/file/${t.body.downloadToken}`);
    expect(expired.status).to.equal(410);
    expect(expired.body).to.include({ code: 'DOWNLOAD_TOKEN_EXPIRED', message: 'O link de download expirou. Gere um novo link.' });
    expect((await api(server).get('/download/file/nao-existe-este-token-aqui')).status).to.equal(404);

    const available = await api(server).get<{ downloads: Array<{ conversionId: string; filename: string }> }>('/download/available', token);
    expect(available.body.downloads.map((d) => d.conversionId)).to.deep.equal([id]);
  });

  it('convert_brokenApk_failsWithCodedErrorAndReturnsTheCredit', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const apk = await readFile(corpusApk('jx-small.apk'));
    // A zip signature, then the central directory cut off: the engine refuses it.
    const res = await uploadBytes(server, token, apk.subarray(0, Math.floor(apk.length / 2)), { fileName: 'quebrado.apk' });
    expect(res.status).to.equal(201);
    const id = conversionIdOf(res);
    await user.reload();
    expect([user.credits, user.creditsReserved]).to.deep.equal([0, 1]);
    const failed = await waitForStatus(server, token, id, ['failed', 'completed']);
    expect(failed.status).to.equal('failed');
    expect(failed.errorCode).to.be.oneOf(['TRUNCATED_ZIP', 'CORRUPT_ZIP', 'NOT_A_ZIP']);
    expect(failed.error).to.match(/APK/);
    expect(failed.canDownload).to.equal(false);
    await user.reload();
    expect([user.credits, user.creditsReserved, user.conversionsCount]).to.deep.equal([1, 0, 0]);
    const logs = await api(server).get<{ logs: Array<{ level: string }> }>(`/conversion/logs/${id}`, token);
    expect(logs.body.logs.some((l) => l.level === 'error')).to.equal(true);
  });

  it('logs_moreThan200Written_newest200KeptAndServedOldestFirst', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const apk = await readFile(corpusApk('jx-small.apk'));
    const id = conversionIdOf(await uploadBytes(server, token, apk.subarray(0, Math.floor(apk.length / 2)), { fileName: 'muitos-logs.apk' }));
    await waitForStatus(server, token, id, ['failed', 'completed']);
    for (let i = 1; i <= 250; i++) await appendLog(server.ctx.models, id, { level: 'info', message: `linha ${i}` });
    await trimLogs(server.ctx.sequelize, id);
    expect(await server.ctx.models.ConversionLog.count({ where: { conversionId: id } })).to.equal(200);
    const logs = await api(server).get<{ logs: Array<{ message: string }> }>(`/conversion/logs/${id}`, token);
    expect(logs.status).to.equal(200);
    expect(logs.body.logs.map((l) => l.message)).to.deep.equal(Array.from({ length: 200 }, (_, i) => `linha ${i + 51}`));
  });

  it('convert_badInput_answersTheSpecMessages', async () => {
    const user = await buildCreditUser(server, 5);
    const token = tokenFor(server, user);
    const apk = await readFile(corpusApk('jx-small.apk'));

    const wrongExt = await uploadBytes(server, token, apk, { fileName: 'app.tar' });
    expect(wrongExt.status).to.equal(400);
    expect(wrongExt.body).to.include({ code: 'INVALID_FILE_TYPE', message: 'Cada arquivo deve ser .apk, .apks, .xapk, .apkm, .zip (conjunto de splits), .obb ou .aab (para gerar o APK).' });

    const notZip = await uploadBytes(server, token, Buffer.from('isto não é um zip'), { fileName: 'APP.APK' });
    expect(notZip.status).to.equal(400);
    expect(notZip.body).to.include({ code: 'NOT_A_ZIP', message: 'O arquivo não é um APK válido (não é um arquivo ZIP).' });

    const unknown = await uploadBytes(server, token, apk, { options: { splits: { abi: true }, turbo: true } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.include({ code: 'INVALID_OPTIONS', message: 'Opção desconhecida: turbo' });
    const unknownSplit = await uploadBytes(server, token, apk, { options: { splits: { screen: true } } });
    expect(unknownSplit.body.message).to.equal('Opção desconhecida: splits.screen');
    const badJson = await uploadBytes(server, token, apk, { options: '{nope' });
    expect(badJson.body.message).to.equal('As opções devem ser um JSON válido.');
    const badVersion = await uploadBytes(server, token, apk, { options: { versionCode: 0 } });
    expect(badVersion.status).to.equal(400);

    const noFile = await api(server).post('/conversion/convert', { x: 1 }, token);
    expect(noFile.status).to.equal(400);

    // None of these took a credit or left a conversion behind.
    await user.reload();
    expect(user.credits).to.equal(5);
    expect(await server.ctx.models.Conversion.count({ where: { userId: user.id } })).to.equal(0);

    const broke = await buildCreditUser(server, 0);
    const r402 = await uploadBytes(server, tokenFor(server, broke), apk);
    expect(r402.status).to.equal(402);
    expect(r402.body.message).to.equal('Você não possui créditos suficientes para fazer esta conversão.');
    const expired = await buildSubscriber(server, -1);
    const e402 = await uploadBytes(server, tokenFor(server, expired), apk);
    expect(e402.status).to.equal(402);
    expect(e402.body.message).to.equal('Limite mensal atingido ou assinatura expirada.');
    expect((await uploadBytes(server, 'invalido', apk)).status).to.equal(401);
  });

  it('upload_thenStart_reachesTheSameStates', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const up = await uploadApk(server, token, corpusApk('jx-small.apk'), { path: '/conversion/upload' });
    expect(up.status).to.equal(201);
    const id = conversionIdOf(up);
    expect(up.body.status).to.equal('pending');
    expect((await statusOf(server, token, id)).status).to.equal('pending');
    await user.reload();
    expect(user.credits).to.equal(1); // reserved only when started
    const start = await api(server).post(`/conversion/start/${id}`, undefined, token);
    expect(start.status).to.equal(200);
    expect(start.body.conversionId).to.equal(id);
    expect((await api(server).post(`/conversion/start/${id}`, undefined, token)).status).to.equal(409);
    expect((await waitForStatus(server, token, id, ['completed', 'failed'])).status).to.equal('completed');
  });

  it('otherUser_gets404OnEveryCallAndIsRefusedOnTheSocket', async () => {
    const owner = await buildCreditUser(server, 3);
    const ownerToken = tokenFor(server, owner);
    const id = conversionIdOf(await uploadApk(server, ownerToken, corpusApk('jx-small.apk')));
    await waitForStatus(server, ownerToken, id, ['completed']);
    const other = await buildCreditUser(server, 3);
    const token = tokenFor(server, other);
    const calls: Array<[string, string]> = [
      ['GET', `/conversion/status/${id}`],
      ['GET', `/conversion/logs/${id}`],
      ['DELETE', `/conversion/logs/${id}`],
      ['POST', `/conversion/cancel/${id}`],
      ['POST', `/conversion/start/${id}`],
      ['POST', `/conversion/generate-download-link/${id}`],
      ['GET', `/conversion/download/${id}`],
      ['GET', `/conversion/temp-download/${id}`],
      ['POST', `/download/generate-download-token/${id}`],
      ['GET', `/conversion/updates/${id}`],
      ['POST', `/conversion/updates/${id}/ticket`],
    ];
    for (const [method, path] of calls) {
      const res = await api(server).request(method, path, undefined, { token });
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
    const history = await api(server).get<ConversionHistoryResponse>('/conversion/history', token);
    expect(history.body.total).to.equal(0);

    const socket = socketFor(server, token);
    await connected(socket);
    const error = new Promise<{ message: string; conversionId: string }>((resolve) => socket.once('error', resolve));
    const answer = await request<{ success: boolean; message: string }>(socket, 'subscribe-conversion', { conversionId: id });
    expect(answer).to.include({ success: false, message: 'Conversão não encontrada ou não autorizada' });
    expect(await error).to.deep.equal({ message: 'Conversão não encontrada ou não autorizada', conversionId: id });
    const stats = await request<{ success: boolean }>(socket, 'get_conversion_stats', { conversionId: id });
    expect(stats.success).to.equal(false);
    const link = await request<{ success: boolean; downloadLink?: string }>(socket, 'generate_download_link', { conversionId: id });
    expect(link.success).to.equal(false);
    expect(link.downloadLink).to.equal(undefined);
    socket.close();

    // The owner still reaches everything; an admin too.
    expect((await api(server).get(`/conversion/status/${id}`, ownerToken)).status).to.equal(200);
    const admin = await buildAdmin(server);
    expect((await api(server).get(`/conversion/status/${id}`, tokenFor(server, admin))).status).to.equal(200);
  });

  it('socket_badToken_getsAuthError', async () => {
    for (const token of ['invalido', undefined]) {
      const socket = socketFor(server, token);
      const err = await new Promise<{ message: string }>((resolve) => socket.once('auth_error', resolve));
      expect(err.message).to.be.oneOf(['Token não encontrado', 'Sessão inválida ou expirada. Faça login novamente.']);
      await waitFor(() => (socket.connected ? undefined : true), 5000, 'disconnect');
      socket.close();
    }
  });

  it('socket_statsLinkAndAutoSubscribe_answerAsTheSpecSays', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadApk(server, token, corpusApk('jx-small.apk')));
    const socket = socketFor(server, token);
    await connected(socket);
    const active = new Promise<ApiConversion[]>((resolve) => socket.once('active-conversions', resolve));
    socket.emit('auto-subscribe-active-conversions');
    const list = await active;
    expect(list.map((c) => c.id)).to.deep.equal([id]);
    const seen = collect(socket, id);
    await waitForStatus(server, token, id, ['completed']);
    await waitFor(() => (seen.some((m) => m.type === 'completed') ? true : undefined), 10000, 'completed via auto-subscribe');

    const statsEvent = new Promise<ApiConversion>((resolve) => socket.once('conversion_stats_response', resolve));
    socket.emit('get_conversion_stats', { conversionId: id });
    expect(await statsEvent).to.include({ id, status: 'completed', progress: 100 });
    const linkEvent = new Promise<{ downloadLink: string; conversionId: string }>((resolve) => socket.once('download_link_response', resolve));
    socket.emit('generate_download_link', { conversionId: id });
    const link = await linkEvent;
    expect(link.conversionId).to.equal(id);
    expect(link.downloadLink).to.match(/\/api\/download\/file\/[\w-]+$/);
    expect((await fetch(server.url + link.downloadLink)).status).to.equal(200);
    socket.close();
  });

  it('socket_brokenApk_errorMessageToSubscribers_noneAfterUnsubscribe', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const apk = await readFile(corpusApk('jx-small.apk'));
    const id = conversionIdOf(await uploadBytes(server, token, apk.subarray(0, Math.floor(apk.length / 2)), { fileName: 'quebrado-socket.apk', path: '/conversion/upload' }));
    const staying = socketFor(server, token);
    const leaving = socketFor(server, token);
    await Promise.all([connected(staying), connected(leaving)]);
    const seen = collect(staying, id);
    const seenAfterLeaving = collect(leaving, id);
    expect(await request(staying, 'subscribe-conversion', { conversionId: id })).to.include({ success: true, conversionId: id });
    expect(await request(leaving, 'subscribe-conversion', { conversionId: id })).to.include({ success: true, conversionId: id });
    expect(await request(leaving, 'unsubscribe', { conversionId: id })).to.include({ success: true, conversionId: id });
    seenAfterLeaving.length = 0;

    await api(server).post(`/conversion/start/${id}`, undefined, token);
    const error = await waitFor(() => seen.find((m) => m.type === 'error'), 30000, 'error message');
    expect(error).to.include({ conversionId: id, status: 'failed' });
    expect((error as { code?: string }).code).to.be.oneOf(['TRUNCATED_ZIP', 'CORRUPT_ZIP', 'NOT_A_ZIP']);
    expect((error as { message?: string }).message).to.match(/APK/);
    await sleep(300); // whatever the server sent the other socket has arrived by now
    expect(seenAfterLeaving).to.deep.equal([]);
    staying.close();
    leaving.close();
  });

  it('sse_streamsTheSameMessagesUntilCompletion', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const up = await uploadApk(server, token, corpusApk('jx-small.apk'), { path: '/conversion/upload' });
    const id = conversionIdOf(up);
    const ticket = await api(server).post<{ ticket: string }>(`/conversion/updates/${id}/ticket`, undefined, token);
    const es = new EventSource(`${server.url}/api/conversion/updates/${id}?token=${encodeURIComponent(ticket.body.ticket)}`);
    const messages: ConversionUpdate[] = [];
    es.onmessage = (e) => messages.push(JSON.parse(e.data) as ConversionUpdate);
    await waitFor(() => (messages.length ? true : undefined), 5000, 'first SSE message');
    expect(messages[0]).to.include({ type: 'status_change', status: 'pending', conversionId: id });
    await api(server).post(`/conversion/start/${id}`, undefined, token);
    await waitFor(() => (messages.some((m) => m.type === 'completed') ? true : undefined), 30000, 'SSE completed');
    es.close();
    const statuses = messages.filter((m) => m.type === 'status_change').map((m) => m.status);
    expect(statuses).to.deep.equal(['pending', 'queued', 'processing']);
    expect(messages.some((m) => m.type === 'progress')).to.equal(true);
    expect(messages.some((m) => m.type === 'log')).to.equal(true);
    expect(messages[messages.length - 1]).to.include({ type: 'completed', filename: 'jx-small.aab', canDownload: true });

    const bad = await fetch(`${server.url}/api/conversion/updates/${id}?token=errado`);
    expect(bad.status).to.equal(401);
  });

  it('history_pagesSearchesFiltersAndSorts', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const apk = await readFile(corpusApk('jx-small.apk'));
    const ids: string[] = [];
    for (const name of ['alfa.apk', 'beta.apk', 'gama.apk']) ids.push(conversionIdOf(await uploadBytes(server, token, apk, { fileName: name, path: '/conversion/upload' })));
    const page1 = await api(server).get<ConversionHistoryResponse>('/conversion/history?page=1&limit=2', token);
    expect(page1.status).to.equal(200);
    expect(page1.body).to.include({ total: 3, page: 1, limit: 2, totalPages: 2, hasNextPage: true, hasPreviousPage: false });
    expect(page1.body.conversions.map((c) => c.fileName)).to.deep.equal(['gama.apk', 'beta.apk']);
    const page2 = await api(server).get<ConversionHistoryResponse>('/conversion/history?page=2&limit=2', token);
    expect(page2.body).to.include({ hasNextPage: false, hasPreviousPage: true });
    const search = await api(server).get<ConversionHistoryResponse>('/conversion/history?search=BET', token);
    expect(search.body.conversions.map((c) => c.id)).to.deep.equal([ids[1]]);
    const sorted = await api(server).get<ConversionHistoryResponse>('/conversion/history?sortBy=fileName&sortOrder=asc&status=pending', token);
    expect(sorted.body.conversions.map((c) => c.fileName)).to.deep.equal(['alfa.apk', 'beta.apk', 'gama.apk']);
    const none = await api(server).get<ConversionHistoryResponse>('/conversion/history?status=completed', token);
    expect(none.body.total).to.equal(0);
    expect((await api(server).get('/conversion/history?sortBy=senha', token)).status).to.equal(400);
    expect((await api(server).get('/conversion/history?limit=1000', token)).status).to.equal(400);
    const defaults = await api(server).get<ConversionHistoryResponse>('/conversion/history', token);
    expect(defaults.body).to.include({ page: 1, limit: 10 });

    // Cancel of a pending one; logs can be cleared.
    const cancel = await api(server).post(`/conversion/cancel/${ids[0]}`, undefined, token);
    expect(cancel.status).to.equal(200);
    expect((await statusOf(server, token, ids[0]!)).status).to.equal('cancelled');
    expect((await api(server).post(`/conversion/cancel/${ids[0]}`, undefined, token)).status).to.equal(409);
    expect((await api(server).delete(`/conversion/logs/${ids[0]}`, token)).status).to.equal(200);
    const logs = await api(server).get<{ logs: unknown[] }>(`/conversion/logs/${ids[0]}`, token);
    expect(logs.body.logs).to.deep.equal([]);
  });

  it('usage_reportsCreditsSubscriptionAndAdmin', async () => {
    const credit = await buildCreditUser(server, 4);
    const u1 = await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, credit));
    expect(u1.body).to.include({ hasActivePlan: true, type: 'credit', credits: 4, remainingCredits: 4, remaining: 4, canConvert: true, currentMonthUsage: 0, totalConversions: 0, redirectTo: null });
    const sub = await buildSubscriber(server, 10);
    const u2 = await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, sub));
    expect(u2.body).to.include({ type: 'subscription', remaining: 'unlimited', canConvert: true, isExpired: false });
    const expired = await buildSubscriber(server, -2);
    const u3 = await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, expired));
    expect(u3.body).to.include({ canConvert: false, isExpired: true, message: 'Limite mensal atingido ou assinatura expirada.', redirectTo: '/plans' });
    const none = await buildUser(server);
    const u4 = await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, none));
    expect(u4.body).to.include({ canConvert: false, hasActivePlan: false });
    const admin = await buildAdmin(server);
    const u5 = await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, admin));
    expect(u5.body).to.include({ canConvert: true, remaining: 'unlimited' });
  });

  it('usage_namesThePlanTheCustomerIsOn', async () => {
    const pack = await buildPlan(server, { name: 'Pacote Ação 50' });
    const credit = await buildCreditUser(server, 3, { currentPlanId: pack.id });
    expect((await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, credit))).body).to.include({ planId: pack.id, planName: 'Pacote Ação 50' });
    const monthly = await buildPlan(server, { name: 'Assinatura Mensal', type: 'subscription' });
    const sub = await buildSubscriber(server, 10, { subscriptionPlanId: monthly.id });
    expect((await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, sub))).body).to.include({ planName: 'Assinatura Mensal' });
    const none = await buildUser(server);
    expect((await api(server).get<UsageInfo>('/conversion/usage', tokenFor(server, none))).body).to.include({ planId: null, planName: null });
  });

  it('bulk_admin_queuesEachApkAndReportsErrorsPerFile', async () => {
    const admin = await buildAdmin(server);
    const token = tokenFor(server, admin);
    const apk = await readFile(corpusApk('jx-small.apk'));
    const form = new FormData();
    form.append('apks', new Blob([apk]), 'um.apk');
    form.append('apks', new Blob([apk]), 'dois.apk');
    form.append('apks', new Blob([Buffer.from('texto')]), 'leiame.txt');
    const res = await api(server).request<{ message: string; conversions: Array<{ conversionId: string; originalFileName: string; queuePosition: number }>; errors: Array<{ fileName: string; error: string }> }>(
      'POST',
      '/conversion/convert/bulk',
      undefined,
      { token, raw: form },
    );
    expect(res.status).to.equal(201);
    expect(res.body.conversions.map((c) => c.originalFileName).sort()).to.deep.equal(['dois.apk', 'um.apk']);
    expect(res.body.errors).to.deep.equal([{ fileName: 'leiame.txt', error: 'O arquivo deve ter extensão .apk', code: 'INVALID_FILE_TYPE' }]);
    expect(res.body.message).to.be.a('string');
    for (const c of res.body.conversions) expect((await waitForStatus(server, token, c.conversionId, ['completed', 'failed'])).status).to.equal('completed');

    const eleven = new FormData();
    for (let i = 0; i < 11; i++) eleven.append('apks', new Blob([apk]), `a${i}.apk`);
    const tooMany = await api(server).request('POST', '/conversion/convert/bulk', undefined, { token, raw: eleven });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.message).to.equal('Máximo de 10 arquivos por vez');

    const user = await buildCreditUser(server, 3);
    const forbidden = await api(server).request('POST', '/conversion/convert/bulk', undefined, { token: tokenFor(server, user), raw: new FormData() });
    expect(forbidden.status).to.equal(403);
  });

  it('retention_purgesOldFilesAndTurnsOffDownload', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const id = conversionIdOf(await uploadApk(server, token, corpusApk('jx-small.apk')));
    await waitForStatus(server, token, id, ['completed']);
    const conv = (await server.ctx.models.Conversion.findByPk(id))!;
    const storage = server.ctx.storage;
    expect(await storage.size(conv.aabKey!)).to.be.a('number');
    await conv.update({ completedAt: new Date(Date.now() - 8 * 86_400_000) });
    expect(await purgeExpiredConversions(server.ctx)).to.be.at.least(1);
    expect(await storage.size(conv.aabKey!)).to.equal(undefined);
    expect(await storage.size(conv.apkKey!)).to.equal(undefined);
    const after = await statusOf(server, token, id);
    expect(after).to.include({ status: 'completed', canDownload: false });
    expect((await api(server).get(`/conversion/download/${id}`, token)).status).to.equal(409);
  });

  it('convert_overRate_answers429WithRetryAfter', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const limiter = server.ctx.conversionSubmitLimiter;
    await limiter.consume(`user:${user.id}`, limiter.options.points);
    const res = await uploadApk(server, token, corpusApk('jx-small.apk'));
    expect(res.status).to.equal(429);
    expect(res.body).to.include({ code: 'RATE_LIMIT', message: 'Rate limit excedido' });
    expect(res.body.retryAfter).to.be.a('number').and.to.be.above(0);
    expect(res.headers.get('retry-after')).to.equal(String(res.body.retryAfter));
  });
});
