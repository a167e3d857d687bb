import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRETS, startTestServer, type TestServer } from './helpers/server.js';
import { createTestDatabase } from './helpers/postgres.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadBytes, waitFor, waitForStatus } from './helpers/conversions.js';

const fixture = fileURLToPath(new URL('./fixtures/conversionServer.ts', import.meta.url));

function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

describe('conversions: a server killed mid-conversion', function () {
  this.timeout(180000);
  let observer: TestServer | undefined;
  let dataDir: string | undefined;
  const children: ChildProcess[] = [];

  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await observer?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('kill9_duringProcessing_restartedServerCompletesTheConversion', async function () {
    requireCorpus(this);
    const databaseUrl = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'aabify-kill-'));
    const storageDir = join(dataDir, 'files');
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, STORAGE_DIR: storageDir, ...TEST_SECRETS };
    const first = await startChild(env);
    children.push(first);
    // A web-only server on the same database and files: HTTP and test data, never runs jobs.
    observer = await startTestServer({ ROLE: 'web', STORAGE_DIR: storageDir }, { databaseUrl });
    const user = await buildCreditUser(observer, 1);
    const token = tokenFor(observer, user);
    const id = conversionIdOf(await uploadBytes(observer, token, await readFile(corpusApk('diva.apk')), { fileName: 'morte.apk' }));
    await waitForStatus(observer, token, id, ['processing'], 30000);

    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const orphan = await observer.ctx.models.Conversion.findByPk(id);
    expect(orphan!.status).to.equal('processing');

    const second = await startChild(env);
    children.push(second);
    const done = await waitForStatus(observer, token, id, ['completed', 'failed'], 90000);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    expect(done.report!.packageName).to.equal('jakhar.aseem.diva');
    const logs = await api(observer).get<{ logs: Array<{ message: string }> }>(`/conversion/logs/${id}`, token);
    expect(logs.body.logs.map((l) => l.message)).to.include('Conversão retomada após falha do processo.');
    // One credit, spent once.
    await user.reload();
    expect([user.credits, user.creditsReserved, user.conversionsCount]).to.deep.equal([0, 0, 1]);
    const download = await fetch(`${observer.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).to.equal(200);
    second.kill('SIGTERM');
    // A graceful stop may wait for a job that is running to end, up to the queue's 30 s drain.
    await waitFor(() => (second.exitCode !== null ? true : undefined), 60000, 'second server to stop');
  });
});
