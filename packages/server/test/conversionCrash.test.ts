import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { TEST_SECRETS, startTestServer, type TestServer } from './helpers/server.js';
import { createTestDatabase } from './helpers/postgres.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, statusOf, uploadBytes, waitFor } from './helpers/conversions.js';

const fixture = fileURLToPath(new URL('./fixtures/conversionServer.ts', import.meta.url));

describe('conversions: a job that kills its worker', function () {
  this.timeout(240000);
  let observer: TestServer | undefined;
  let dataDir: string | undefined;
  const children: ChildProcess[] = [];

  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await observer?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('killsItsWorkerThreeTimes_failsWithCodedMessage_creditReturned', async function () {
    requireCorpus(this);
    const databaseUrl = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'aabify-crash-'));
    const storageDir = join(dataDir, 'files');
    observer = await startTestServer({ ROLE: 'web', STORAGE_DIR: storageDir }, { databaseUrl });
    const user = await buildCreditUser(observer, 1);
    const token = tokenFor(observer, user);
    const id = conversionIdOf(await uploadBytes(observer, token, await readFile(corpusApk('jx-small.apk'))));

    // One worker at a time, each with an engine that kills its process; a new one replaces the dead.
    let live: ChildProcess | undefined;
    const dead = () => children.filter((c) => c.exitCode !== null || c.signalCode !== null).length;
    const env = {
      ...process.env,
      ...TEST_SECRETS,
      DATABASE_URL: databaseUrl,
      ROLE: 'worker',
      STORAGE_DIR: storageDir,
      ENGINE: 'kill',
      LOCK_LIFETIME_MS: '4000',
      HEARTBEAT_MS: '300',
      STALE_AFTER_MS: '1500',
    };
    const done = await waitFor(
      async () => {
        const c = await statusOf(observer!, token, id);
        if (c.status === 'failed' || c.status === 'completed') return c;
        if (!live || live.exitCode !== null || live.signalCode !== null) {
          live = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...env, DATA_DIR: join(dataDir!, `w${children.length}`) }, stdio: 'ignore' });
          children.push(live);
        }
        await new Promise((r) => setTimeout(r, 200));
        return undefined;
      },
      200000,
      'the conversion to fail',
    );
    // The web process may mark it failed before this loop saw the third worker's exit: wait for it.
    await waitFor(async () => (dead() >= 3 ? true : undefined), 10_000, 'three workers dead').catch(() => undefined);
    expect(dead()).to.equal(3);
    expect(done.status).to.equal('failed');
    expect(done.errorCode).to.equal('WORKER_CRASHED');
    expect(done.error).to.equal(CONVERSION_MESSAGES.workerCrashed);
    await user.reload();
    expect([user.credits, user.creditsReserved, user.conversionsCount]).to.deep.equal([1, 0, 0]);
  });
});
