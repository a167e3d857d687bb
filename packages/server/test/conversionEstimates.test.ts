import { expect } from 'chai';
import type { ApiConversion } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { queriesDuring } from './helpers/queries.js';
import { waitFor } from './helpers/conversions.js';

const MB = 1024 * 1024;

describe('conversions: time estimates from measured durations by input size', function () {
  this.timeout(60000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    await server.ctx.settings.set('conversions.maxConcurrent', 4);
  });
  after(async () => {
    await server?.stop();
  });

  it('estimates_smallAndLargeInputs_eachToldTheTimeItsSizeTookRecently', async () => {
    const user = await buildCreditUser(server, 5);
    const token = tokenFor(server, user);
    const now = Date.now();
    // Recent history: 2 s per MB (a 1 MB input took 2 s, a 9 MB one 18 s).
    for (const [size, ms] of [[1 * MB, 2000], [9 * MB, 18000]] as const) {
      await buildConversion(server, user, { status: 'completed', fileSize: size, processingStartedAt: new Date(now - 60000 - ms), completedAt: new Date(now - 60000), progress: 100 });
    }
    server.ctx.conversionStats.invalidate();
    // Two waiting conversions, both in the first round of the four slots.
    const small = await buildConversion(server, user, { status: 'queued', fileSize: MB / 2, queuedAt: new Date(now - 2000) });
    const large = await buildConversion(server, user, { status: 'queued', fileSize: 50 * MB, queuedAt: new Date(now - 1000) });
    const estimate = async (id: string) => (await api(server).get<ApiConversion>(`/conversion/status/${id}`, token)).body.estimatedTime;
    expect(await estimate(small.id)).to.equal(1000);
    expect(await estimate(large.id)).to.equal(100000);

    // Running, just started: the time its size takes, not the mean of other sizes.
    await small.update({ status: 'processing', processingStartedAt: new Date(), progress: 0 });
    server.ctx.conversionStats.invalidate();
    const running = await estimate(small.id);
    expect(running).to.be.at.most(1000);
  });
});

describe('conversions: measured durations while conversions complete', function () {
  this.timeout(60000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('durations_aConversionCompletesUnderLoad_statusReadsAnswerWithoutWaiting_oneReadBringsTheNewFigures', async () => {
    const user = await buildCreditUser(server, 1);
    const token = tokenFor(server, user);
    const now = Date.now();
    const completed = await buildConversion(server, user, { status: 'completed', fileSize: MB, processingStartedAt: new Date(now - 30000 - 4000), completedAt: new Date(now - 30000), progress: 100 });
    const status = async () => (await api(server).get<ApiConversion>(`/conversion/status/${completed.id}`, token)).body.averageProcessingTime;
    // The first figures measured are waited for.
    expect(await status()).to.equal(4000);
    // Another conversion completes here, much slower, while the durations cannot be read (the
    // table locked): every status read answers at once with the figures it had, and one read of
    // the durations, when it can run, brings the new ones to all.
    await buildConversion(server, user, { status: 'completed', fileSize: MB, processingStartedAt: new Date(now - 10000 - 396000), completedAt: new Date(now - 10000), progress: 100 });
    const locker = await server.ctx.sequelize.transaction();
    let answers: number[] = [];
    const reads = await queriesDuring(server, /avg\(ms\)/, async () => {
      try {
        await server.ctx.sequelize.query('LOCK TABLE conversions IN ACCESS EXCLUSIVE MODE', { transaction: locker });
        server.ctx.conversionStats.invalidate();
        answers = await Promise.all(Array.from({ length: 5 }, status));
      } finally {
        await locker.rollback();
      }
      await waitFor(async () => ((await status()) === 200000 ? true : undefined), 5000, 'the new figures');
    });
    expect(answers).to.deep.equal([4000, 4000, 4000, 4000, 4000]);
    expect(reads).to.have.length(1);
  });
});
