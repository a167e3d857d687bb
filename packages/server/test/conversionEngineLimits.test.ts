/**
 * The worker pool's limits: a conversion past `conversions.maxDurationSeconds`
 * has its worker terminated, fails with CONVERSION_TIMEOUT and gets its credit back; a worker that
 * reaches its heap limit fails its conversion with WORKER_OUT_OF_MEMORY, credit back, and the
 * pool goes on with a fresh worker. The engine is the test engine (fixtures/slowEngine.ts), which
 * spins or hoards memory on inputs carrying a marker, through real HTTP on embedded Postgres.
 */
import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { HOG_MARKER, SPIN_MARKER } from './fixtures/slowEngine.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { SLOW_ENGINE, conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';
import { ENGINE_THREAD_NICE } from '../src/conversions/engine.js';

/** A tiny APK whose stored entry carries `marker` for the test engine. */
const apkWith = (marker?: string): Buffer =>
  buildZip([...tinyApkEntries(), ...(marker ? [{ name: 'assets/marker.txt', data: marker, method: 0 as const }] : [])]);

describe('conversion worker limits: deadline and heap', function () {
  this.timeout(180_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer(
      {},
      { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 10, spinMs: 120_000 } }, claimRetryMs: 100, workerHeapLimitMb: 96 } },
    );
  });
  after(async () => server?.stop());

  async function creditsOf(userId: string): Promise<{ credits: number; reserved: number }> {
    const u = await server.ctx.models.User.findByPk(userId);
    return { credits: u!.credits, reserved: u!.creditsReserved };
  }

  it('conversion_pastMaxDuration_workerTerminatedFailsCodedAndCreditReturned', async () => {
    const admin = tokenFor(server, await buildAdmin(server));
    const put = await api(server).put('/admin/config/conversions.maxDurationSeconds', { value: 5 }, admin);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    try {
      const user = await buildCreditUser(server, 2);
      const token = tokenFor(server, user);
      const res = await uploadBytes(server, token, apkWith(SPIN_MARKER));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const failed = await waitForStatus(server, token, conversionIdOf(res), ['failed', 'completed'], 90_000);
      expect(failed.status).to.equal('failed');
      const row = await server.ctx.models.Conversion.findByPk(conversionIdOf(res));
      expect(row!.errorCode).to.equal('CONVERSION_TIMEOUT');
      expect(failed.error).to.equal(CONVERSION_MESSAGES.timedOut(5));
      expect(failed.error).to.contain('5 segundos');
      expect(await creditsOf(user.id)).to.deep.equal({ credits: 2, reserved: 0 });

      // The stuck thread is gone: the next conversion gets a fresh worker and completes.
      const next = await uploadBytes(server, token, apkWith());
      const done = await waitForStatus(server, token, conversionIdOf(next), ['failed', 'completed'], 90_000);
      expect(done.status, done.error ?? '').to.equal('completed');
      expect(await creditsOf(user.id)).to.deep.equal({ credits: 1, reserved: 0 });
    } finally {
      await server.ctx.settings.unset('conversions.maxDurationSeconds');
    }
  });

  it('conversion_workerReachesHeapLimit_failsOutOfMemoryCreditReturnedPoolGoesOn', async () => {
    const user = await buildCreditUser(server, 2);
    const token = tokenFor(server, user);
    const res = await uploadBytes(server, token, apkWith(HOG_MARKER));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const failed = await waitForStatus(server, token, conversionIdOf(res), ['failed', 'completed'], 120_000);
    expect(failed.status).to.equal('failed');
    const row = await server.ctx.models.Conversion.findByPk(conversionIdOf(res));
    expect(row!.errorCode).to.equal('WORKER_OUT_OF_MEMORY');
    expect(failed.error).to.equal(CONVERSION_MESSAGES.outOfMemory);
    expect(await creditsOf(user.id)).to.deep.equal({ credits: 2, reserved: 0 });
    // The server process itself is untouched and the pool replaced the dead worker.
    expect((await api(server).get('/health')).status).to.equal(200);
    const next = await uploadBytes(server, token, apkWith());
    const done = await waitForStatus(server, token, conversionIdOf(next), ['failed', 'completed'], 90_000);
    expect(done.status, done.error ?? '').to.equal('completed');
  });

  it('engineThreads_runBelowTheMainThread_soAnswersAreServedFirst', async function () {
    if (process.platform !== 'linux') this.skip(); // a thread's own nice value is Linux's
    // The server runs in this process: its threads are this process's tasks.
    const niceOf = (tid: string): number => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const mainNice = niceOf(String(process.pid));
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const done = await waitForStatus(server, token, conversionIdOf(await uploadBytes(server, token, apkWith())), ['failed', 'completed'], 90_000);
    expect(done.status, done.error ?? '').to.equal('completed');
    const lowered = readdirSync('/proc/self/task').filter((tid) => niceOf(tid) === Math.min(19, mainNice + ENGINE_THREAD_NICE) && niceOf(tid) !== mainNice);
    // The engine thread that ran it (and any other warm one) is lowered, the main thread untouched.
    expect(lowered.length).to.be.at.least(1);
    expect(niceOf(String(process.pid))).to.equal(mainNice);
  });
});
