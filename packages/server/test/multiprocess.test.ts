/**
 * The scale-out topology of compose.yaml as separate OS processes: two ROLE=web and two
 * ROLE=worker servers started all at once on one EMPTY database, sharing the secrets and the
 * file store. Everything goes through real HTTP and socket.io clients; a test-side Postgres
 * client only reads which instance runs a conversion and what a user was charged.
 *
 * The workers run test/fixtures/conversionServer.ts (the real startServer with a slowed-down
 * engine, so a conversion can be caught mid-way) with production lock and heartbeat timings.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { SOCKET_EVENTS, type ConversionUpdate } from '@aabify/shared';
import { DEFAULT_AUTH_LIMITS } from '../src/accounts/authService.js';
import { createTestDatabase } from './helpers/postgres.js';
import { TEST_SECRETS } from './helpers/server.js';
import { startTestS3 } from './helpers/s3.js';
import { api, type JsonBody } from './helpers/http.js';
import { collect, conversionIdOf, connected, corpusApk, request, requireCorpus, socketFor, statusOf, uploadApk, waitFor, waitForStatus } from './helpers/conversions.js';

const fixture = fileURLToPath(new URL('./fixtures/conversionServer.ts', import.meta.url));

/** The shared object store of compose.yaml: a real S3 API server (s3rver) on loopback. */
async function sharedStorage(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const s3 = await startTestS3();
  return { env: s3.env(), stop: () => s3.stop() };
}

interface Proc {
  name: string;
  child: ChildProcess;
  url: string;
  instance: string;
  dataDir: string;
  stderr: string[];
}

function startProcess(name: string, env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\S+) (\S+)/.exec(out);
      if (m) resolve({ name, child, url: m[1]!, instance: m[2]!, dataDir: env.DATA_DIR!, stderr });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited during start (${code}): ${stderr.join('').slice(-2000)}`)));
  });
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once('exit', r));
}

/** APK and AAB files under a directory (the engine's scratch files must not stay behind). */
async function packageFilesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && /\.(apk|aab)$/i.test(e.name)) found.push(join(e.parentPath, e.name));
  }
  return found;
}

describe('scale-out: two web and two worker processes on one database', function () {
  this.timeout(300000);
  let root: string | undefined;
  let storage: Awaited<ReturnType<typeof sharedStorage>> | undefined;
  let db: pg.Client | undefined;
  const procs: Proc[] = [];
  const sockets: Socket[] = [];
  let webA: Proc, webB: Proc;
  let adminToken = '';
  let userToken = '';
  const userEmail = 'cliente@example.com';

  before(async function () {
    requireCorpus(this);
    root = await mkdtemp(join(tmpdir(), 'aabify-scale-'));
    storage = await sharedStorage();
    const databaseUrl = await createTestDatabase();
    db = new pg.Client({ connectionString: databaseUrl, application_name: 'multiprocess-test' });
    await db.connect();
    const common = { ...TEST_SECRETS, DATABASE_URL: databaseUrl, STAGE_DELAY_MS: '2500', ...storage.env };
    const roles = [
      ['web-a', 'web'],
      ['web-b', 'web'],
      ['worker-1', 'worker'],
      ['worker-2', 'worker'],
    ] as const;
    // All at once on the empty database: migrations and the queue's tables under the start-up lock.
    const started = await Promise.allSettled(roles.map(([name, role]) => startProcess(name, { ...common, ROLE: role, DATA_DIR: join(root!, name) })));
    for (const s of started) if (s.status === 'fulfilled') procs.push(s.value);
    const failed = started.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(failed.map((f) => String(f.reason))).to.deep.equal([]);
    [webA, webB] = procs;
  });

  after(async () => {
    for (const s of sockets) s.disconnect();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => exited(p.child)));
    await db?.end();
    await storage?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('startedTogetherOnAnEmptyDatabase_allReady', async () => {
    for (const p of procs) {
      const ready = await fetch(`${p.url}/api/ready`);
      expect(ready.status, `${p.name}: ${await ready.clone().text()}`).to.equal(200);
    }
    const { rows } = await db!.query<{ n: string }>('SELECT count(*) AS n FROM worker_instances');
    expect(Number(rows[0]!.n)).to.equal(4);
  });

  it('sessionFromWebA_worksOnWebB', async () => {
    const setup = await api(webA).post<{ token: string }>('/setup/initialize', { email: 'admin@example.com', password: 'senha-do-admin-1', name: 'Admin' });
    expect(setup.status).to.equal(201);
    adminToken = setup.body.token;
    const created = await api(webB).post('/admin/users/create-user', { email: userEmail, password: 'senha-do-cliente-1', userType: 'credit', credits: 2 }, adminToken);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const login = await api(webA).post<{ token: string }>('/auth/login', { email: userEmail, password: 'senha-do-cliente-1' });
    expect(login.status).to.equal(200);
    userToken = login.body.token;
    // Made by an admin, the account accepts the Termos de Uso and Política de Privacidade at its first sign-in.
    expect((await api(webA).post('/legal/acceptance', { termsVersion: 1, privacyVersion: 1 }, userToken)).status).to.equal(200);
    const me = await api(webB).get<{ user?: { email: string }; email?: string }>('/auth/me', userToken);
    expect(me.status).to.equal(200);
    expect(JSON.stringify(me.body)).to.contain(userEmail);
  });

  it('settingChangedOnWebA_appliesOnWebB', async () => {
    const before = await api(webB).get<{ maxFileSize: number }>('/conversion/limits', userToken);
    expect(before.status).to.equal(200);
    const wanted = before.body.maxFileSize === 200 * 1024 * 1024 ? 150 * 1024 * 1024 : 200 * 1024 * 1024;
    const put = await api(webA).put(`/admin/config/upload.maxFileSize`, { value: wanted }, adminToken);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    // B cached the old value a moment ago; the notification from A's write replaces it.
    await waitFor(async () => ((await api(webB).get<{ maxFileSize: number }>('/conversion/limits', userToken)).body.maxFileSize === wanted ? true : undefined), 10000, 'the setting on web B');
  });

  it('conversion_uploadedOnA_followedLiveOnB_workerKilled_otherWorkerFinishes_downloadedOnB', async () => {
    const socketB = socketFor(webB, userToken);
    sockets.push(socketB);
    await connected(socketB);
    const id = conversionIdOf(await uploadApk(webA, userToken, corpusApk('diva.apk')));
    const seen: ConversionUpdate[] = collect(socketB, id);
    const sub = await request<{ success: boolean }>(socketB, SOCKET_EVENTS.subscribe, { conversionId: id });
    expect(sub.success).to.equal(true);

    // The worker running it, by the instance id the conversion row records.
    const owner = await waitFor(async () => {
      const { rows } = await db!.query<{ status: string; workerName: string | null }>('SELECT status, "workerName" FROM conversions WHERE id = $1', [id]);
      return rows[0]?.status === 'processing' && rows[0].workerName ? rows[0].workerName : undefined;
    }, 60000, 'a worker to take the conversion');
    const victim = procs.find((p) => p.instance === owner);
    expect(victim, `owner ${owner} among ${procs.map((p) => p.instance).join(', ')}`).to.not.equal(undefined);
    expect(victim!.name).to.match(/^worker-/);
    await waitFor(() => (seen.some((m) => m.status === 'processing') ? true : undefined), 30000, 'a live processing message on web B');
    victim!.child.kill('SIGKILL');
    await exited(victim!.child);

    // The other worker takes it over within 60 s (heartbeat gone → lock released → resumed).
    const done = await waitForStatus(webB, userToken, id, ['completed', 'failed'], 60000);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    const { rows } = await db!.query<{ workerName: string | null; attempts: number }>('SELECT "workerName", attempts FROM conversions WHERE id = $1', [id]);
    expect(rows[0]!.attempts).to.equal(2);
    await waitFor(() => (seen.some((m) => m.type === 'completed') ? true : undefined), 10000, 'the completed message on web B');

    const logs = await api(webB).get<{ logs: Array<{ message: string }> }>(`/conversion/logs/${id}`, userToken);
    expect(logs.body.logs.map((l) => l.message)).to.include('Conversão retomada após falha do processo.');
    // Exactly one credit: 2 given, 1 spent, nothing held in reserve.
    const user = await db!.query<{ credits: number; creditsReserved: number; conversionsCount: number }>(
      'SELECT credits, "creditsReserved", "conversionsCount" FROM users WHERE email = $1',
      [userEmail],
    );
    expect(user.rows[0]).to.deep.include({ credits: 1, creditsReserved: 0, conversionsCount: 1 });

    const download = await fetch(`${webB.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${userToken}` } });
    expect(download.status).to.equal(200);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).to.equal('PK');
    expect((await statusOf(webB, userToken, id)).canDownload).to.equal(true);
  });

  it('wrongPasswordsSpreadOverAandB_limitedAsOne', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const web = i % 2 === 0 ? webA : webB;
      answers.push((await api(web).post('/auth/login', { email: userEmail, password: `errada-${i}` })).status);
    }
    // One account's limit across the cluster: at most `points` answers, the rest 429.
    expect(answers.filter((s) => s === 401).length).to.be.at.most(DEFAULT_AUTH_LIMITS.loginPerAccountAddress.points);
    expect(answers.slice(-1)).to.deep.equal([429]);
  });

  it('workerStoppedGracefully_socketsOnWebProcessesStayConnected', async () => {
    const socketA = socketFor(webA, userToken);
    const socketB = socketFor(webB, userToken);
    sockets.push(socketA, socketB);
    await Promise.all([connected(socketA), connected(socketB)]);
    const dropped: string[] = [];
    socketA.on('disconnect', (why) => dropped.push(`A: ${why}`));
    socketB.on('disconnect', (why) => dropped.push(`B: ${why}`));
    const worker = procs.find((p) => p.name.startsWith('worker-') && p.child.exitCode === null && p.child.signalCode === null)!;
    worker.child.kill('SIGTERM');
    await exited(worker.child);
    expect(worker.child.exitCode).to.equal(0);
    // The sockets still answer after the stop (a disconnect would have arrived with the stop).
    const stats = await request<JsonBody>(socketA, SOCKET_EVENTS.stats, { conversionId: '00000000-0000-0000-0000-000000000000' });
    expect(stats.success).to.equal(false);
    await request<JsonBody>(socketB, SOCKET_EVENTS.stats, { conversionId: '00000000-0000-0000-0000-000000000000' });
    expect(dropped).to.deep.equal([]);
    expect([socketA.connected, socketB.connected]).to.deep.equal([true, true]);
  });

  it('noApkOrAabLeftInTheLiveProcessesDataDirs', async () => {
    const live = procs.filter((p) => p.child.signalCode !== 'SIGKILL');
    const left = (await Promise.all(live.map((p) => packageFilesUnder(p.dataDir)))).flat();
    expect(left).to.deep.equal([]);
  });
});
