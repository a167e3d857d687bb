import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateUploadKeystore } from '@aabify/converter';
import { freePort, createTestDatabase } from './helpers/postgres.js';
import { api } from './helpers/http.js';
import { TEST_SECRETS, startTestServer, type TestServer } from './helpers/server.js';
import { buildSubscriber, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitForStatus } from './helpers/conversions.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('conversions: the bundled server', function () {
  this.timeout(180000);
  let outdir: string | undefined;
  let child: ChildProcess | undefined;
  let observer: TestServer | undefined;

  after(async () => {
    child?.kill('SIGKILL');
    await observer?.stop();
    if (outdir) await rm(outdir, { recursive: true, force: true });
  });

  it('bundle_workerEntryPoint_convertsOffTheMainThread', async function () {
    requireCorpus(this);
    // Inside the package, so the bundle resolves node_modules like dist/ does.
    await mkdir(join(packageDir, '.cache'), { recursive: true });
    outdir = await mkdtemp(join(packageDir, '.cache', 'bundle-'));
    const built = spawnSync(process.execPath, ['build.mjs'], { cwd: packageDir, env: { ...process.env, AABIFY_SERVER_OUTDIR: outdir }, stdio: 'inherit' });
    expect(built.status).to.equal(0);
    expect(existsSync(join(outdir, 'conversionWorker.js'))).to.equal(true);
    expect(existsSync(join(outdir, 'keystoreWorker.js'))).to.equal(true);
    const databaseUrl = await createTestDatabase();
    const dataDir = join(outdir, 'data');
    const port = await freePort();
    child = spawn(process.execPath, [join(outdir, 'main.js')], {
      cwd: packageDir,
      env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => d.toString().includes('aabify pronto') && resolve());
      child!.once('exit', (code) => reject(new Error(`bundled server exited (${code})`)));
    });
    // Test data through an in-process server on the same database (web role: it runs no jobs).
    // Both processes get TEST_SECRETS, so the observer's token also signs in on the bundled one.
    observer = await startTestServer({ ROLE: 'web', STORAGE_DIR: join(dataDir, 'files') }, { databaseUrl });
    const user = await buildSubscriber(observer, 30);
    const bundled = { url: `http://127.0.0.1:${port}` };
    const token = tokenFor(observer, user);
    const id = conversionIdOf(await uploadApk(observer, token, corpusApk('jx-small.apk')));
    const done = await waitForStatus(observer, token, id, ['completed', 'failed'], 60000);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    expect(done.report!.packageName).to.equal('io.github.skylot.android.smallapp');
    const health = await fetch(`${bundled.url}/api/health`);
    expect(health.status).to.equal(200);

    // The keystore worker entry of the bundle (dist/keystoreWorker.js) opens an upload key.
    const gen = generateUploadKeystore({ password: 'senha-do-bundle' });
    const saved = await api(bundled).put<{ keystore: { certificateSha256: string } }>(
      '/account/keystore',
      { keystore: gen.keystore.toString('base64'), storePassword: 'senha-do-bundle' },
      token,
    );
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.keystore.certificateSha256).to.equal(gen.sha256);
  });
});
