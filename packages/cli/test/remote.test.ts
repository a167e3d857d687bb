/**
 * The server commands as a pipeline sees them: the real bin spawned against a real server (a
 * child process on embedded defaults), never on a terminal. Asserts stdout (one JSON document
 * with --json), stderr, exit codes (0 ok, 1 conversion failed, 2 usage, 3 auth, 4 no credits,
 * 5 rate limited, 6 network/server) and the bytes of the AAB the CLI saves.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildZip, tinyApkEntries, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { freePort, startServer, type TestServer } from './helpers/server.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES } from '@aabify/shared/conversions';

const bin = CLI_BIN;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

type Doc = Record<string, unknown>;

describe('aabify remote commands', function () {
  this.timeout(180_000);
  let server: TestServer;
  let dir: string;
  let configHome: string;
  let adminSession: string;
  let adminToken: string;
  let userToken: string;
  const adminEmail = 'admin@aabify.test';
  const userEmail = 'user@aabify.test';
  const password = 'segredo123';

  /** Runs the built CLI with stdin a pipe, never on a TTY (as in CI). */
  function aabify(args: string[], options: RunOptions = {}): Promise<Run> {
    return new Promise((resolveRun, reject) => {
      const env: NodeJS.ProcessEnv = cliEnv({ XDG_CONFIG_HOME: configHome, AABIFY_POLL_INTERVAL: '500' });
      delete env.AABIFY_URL;
      delete env.AABIFY_TOKEN;
      for (const [k, v] of Object.entries(options.env ?? {})) {
        if (v === undefined) delete env[k];
        else env[k] = v;
      }
      const child = spawn(process.execPath, [bin, ...args], { env, cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.stdin.end(options.input ?? '');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 150_000);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolveRun({ status, stdout, stderr });
      });
    });
  }

  /** The CLI pointed at the test server with a token from the environment (null: none). */
  function remote(args: string[], token: string | null = adminToken, options: RunOptions = {}): Promise<Run> {
    return aabify(args, { ...options, env: { AABIFY_URL: server.url, AABIFY_TOKEN: token ?? undefined, ...options.env } });
  }

  function json(r: Run): Doc {
    let value: unknown;
    try {
      value = JSON.parse(r.stdout);
    } catch {
      throw new Error(`stdout is not one JSON document (exit ${r.status}):\n${r.stdout}\nstderr:\n${r.stderr}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${r.stdout}`);
    return value as Doc;
  }

  function errorOf(doc: Doc): Doc {
    expect(doc.ok).to.equal(false);
    expect(doc.error).to.be.an('object');
    return doc.error as Doc;
  }

  /** Off a terminal: nothing but printable text and newlines. */
  function expectNoControlCharacters(r: Run): void {
    // eslint-disable-next-line no-control-regex
    const control = /[\x00-\x09\x0b-\x1f\x7f]/;
    expect(control.test(r.stdout), `control character in stdout: ${JSON.stringify(r.stdout)}`).to.equal(false);
    expect(control.test(r.stderr), `control character in stderr: ${JSON.stringify(r.stderr)}`).to.equal(false);
  }

  function configFile(): string {
    return join(configHome, 'aabify', 'config.json');
  }

  function readConfig(): Doc {
    return JSON.parse(readFileSync(configFile(), 'utf8')) as Doc;
  }

  async function createApiToken(session: string, name: string): Promise<{ id: string; token: string }> {
    const res = await server.api('POST', '/auth/tokens', { name }, session);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const body = res.body as { id: string; token: string };
    return { id: body.id, token: body.token };
  }

  async function downloadFromServer(conversionId: string): Promise<Buffer> {
    const res = await fetch(`${server.url}/api/conversion/download/${conversionId}`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.status).to.equal(200);
    return Buffer.from(await res.arrayBuffer());
  }

  before(async function () {
    this.timeout(180_000);
    dir = mkdtempSync(join(tmpdir(), 'aabify-cli-remote-'));
    configHome = join(dir, 'config');
    server = await startServer();
    const setup = await server.api('POST', '/setup/initialize', { email: adminEmail, password, name: 'Admin' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    adminSession = (setup.body as { token: string }).token;
    adminToken = (await createApiToken(adminSession, 'testes do CLI')).token;
    const reg = await server.api('POST', '/auth/register', { acceptTerms: true, email: userEmail, password });
    expect(reg.status, JSON.stringify(reg.body)).to.equal(201);
    // Sign-up answers the new customer's session.
    userToken = (await createApiToken((reg.body as { token: string }).token, 'usuário sem plano')).token;
  });

  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => rmSync(configHome, { recursive: true, force: true }));

  // A failure seen through the CLI alone hides the server's side of it: its log goes with the report.
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && server) console.error(`server log (last 8000 characters):\n${server.output().slice(-8000)}`);
  });

  describe('login, whoami, logout', () => {
    it('login_withToken_savesUrlAndTokenMode600', async () => {
      const r = await aabify(['login', '--url', server.url, '--token', adminToken, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ ok: true, url: server.url, email: adminEmail, role: 'admin' });
      expect(r.stdout).to.not.contain(adminToken);
      expect(statSync(configFile()).mode & 0o777).to.equal(0o600);
      expect(readConfig()).to.include({ url: server.url, token: adminToken });
      expectNoControlCharacters(r);
    });

    it('login_emailAndPasswordOnStdin_createsPersonalApiToken', async () => {
      const r = await aabify(['login', '--url', server.url, '--json'], { input: `${adminEmail}\n${password}\n` });
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      expect(doc).to.include({ ok: true, email: adminEmail });
      const config = readConfig();
      expect(config.token).to.be.a('string').and.match(/^aab_/);
      expect(config.tokenId).to.equal(doc.tokenId);
      const list = await server.api('GET', '/auth/tokens', undefined, adminSession);
      expect((list.body as { tokens: { id: string }[] }).tokens.map((t) => t.id)).to.include(config.tokenId);
    });

    it('whoami_afterLogin_jsonHasEmailRoleAndPlan', async () => {
      expect((await aabify(['login', '--url', server.url, '--token', adminToken])).status).to.equal(0);
      const r = await aabify(['whoami', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      expect(doc).to.include({ ok: true, email: adminEmail, role: 'admin', planStatus: 'active', url: server.url });
      expect(doc).to.have.property('credits');
      expect(doc).to.have.property('expiresAt');
      expectNoControlCharacters(r);
    });

    it('whoami_envTokenAndUrl_takePrecedenceOverConfig', async () => {
      expect((await aabify(['login', '--url', server.url, '--token', adminToken])).status).to.equal(0);
      const r = await remote(['whoami', '--json'], userToken);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ email: userEmail, role: 'user', planStatus: 'no_plan' });
    });

    it('whoami_humanOutput_ptBrLines', async () => {
      const r = await remote(['whoami'], userToken);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain(`${userEmail} (usuário)`).and.contain('Plano: sem plano');
      expectNoControlCharacters(r);
    });

    it('logout_afterPasswordLogin_revokesTokenAndRemovesIt', async () => {
      expect((await aabify(['login', '--url', server.url], { input: `${adminEmail}\n${password}\n` })).status).to.equal(0);
      const token = readConfig().token as string;
      const r = await aabify(['logout', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ ok: true, revoked: true, removed: true });
      expect(readConfig()).to.not.have.property('token');
      expect((await server.api('GET', '/auth/me', undefined, token)).status).to.equal(401);
    });

    it('logout_tokenLoginWithoutId_revokesByPrefix', async () => {
      const made = await createApiToken(adminSession, 'para revogar');
      expect((await aabify(['login', '--url', server.url, '--token', made.token])).status).to.equal(0);
      const r = await aabify(['logout', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ revoked: true });
      expect((await server.api('GET', '/auth/me', undefined, made.token)).status).to.equal(401);
    });
  });

  describe('exit codes', () => {
    it('whoami_wrongToken_exit3JsonError', async () => {
      const r = await remote(['whoami', '--json'], 'aab_wrongwrongwrongwrongwrongwrongwrongwrong');
      expect(r.status).to.equal(3);
      const doc = json(r);
      expect(errorOf(doc)).to.include({ status: 401 });
      expect(doc.exitCode).to.equal(3);
      expect(r.stderr).to.match(/^erro: .+ \[[A-Z_]+\]$/m);
      expectNoControlCharacters(r);
    });

    it('whoami_noTokenAnywhere_exit3', async () => {
      const r = await remote(['whoami', '--json'], null);
      expect(r.status).to.equal(3);
      expect(errorOf(json(r))).to.include({ code: 'NOT_LOGGED_IN' });
      expect(r.stderr).to.contain('aabify login');
    });

    it('login_wrongPassword_exit3', async () => {
      const r = await aabify(['login', '--url', server.url, '--json'], { input: `${userEmail}\nerrada123\n` });
      expect(r.status).to.equal(3);
      expect(errorOf(json(r))).to.include({ code: 'INVALID_CREDENTIALS', message: 'Email ou senha incorretos.' });
      expect(existsSync(configFile())).to.equal(false);
    });

    it('login_repeatedWrongPasswords_rateLimited_exit5', async () => {
      const email = 'alvo@aabify.test';
      let last: Run | undefined;
      for (let i = 0; i < 7; i++) {
        last = await aabify(['login', '--url', server.url, '--json'], { input: `${email}\nerrada123\n`, env: { AABIFY_MAX_RETRY_WAIT: '2' } });
        if (last.status !== 3) break;
      }
      expect(last?.status, last?.stderr).to.equal(5);
      const error = errorOf(json(last as Run));
      expect(error).to.include({ code: 'RATE_LIMIT', status: 429 });
      expect(error.retryAfter).to.be.a('number').greaterThan(2);
      expect(last?.stderr).to.contain('Tente novamente em');
    });

    it('whoami_serverDown_exit6', async () => {
      const port = await freePort();
      const r = await aabify(['whoami', '--json'], { env: { AABIFY_URL: `http://127.0.0.1:${port}`, AABIFY_TOKEN: adminToken } });
      expect(r.status).to.equal(6);
      expect(errorOf(json(r))).to.include({ code: 'NETWORK_ERROR' });
      expect(r.stderr).to.contain('Erro de conexão');
      expectNoControlCharacters(r);
    });

    it('badFlags_usageErrors_exit2', async () => {
      const apk = join(dir, 'app.apk');
      writeFileSync(apk, 'x');
      const cases: string[][] = [
        ['history', '--page', '0', '--json'],
        ['history', '--status', 'talvez'],
        ['status'],
        ['whoami', '--frobnicate'],
        ['convert', join(dir, 'app.txt')],
        ['convert', apk, '--options', 'não é json', '--json'],
        ['convert', join(dir, 'missing.apk')],
        ['login', '--url', 'ftp://example.com', '--token', 'x'],
      ];
      for (const args of cases) {
        const r = await remote(args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
        if (args.includes('--json')) expect(json(r).ok).to.equal(false);
        expectNoControlCharacters(r);
      }
    });

    it('status_unknownId_exit2', async () => {
      const r = await remote(['status', '00000000-0000-4000-8000-000000000000', '--json']);
      expect(r.status, r.stderr).to.equal(2);
      expect(errorOf(json(r))).to.include({ status: 404 });
    });

    it('cancel_unknownId_exit2', async () => {
      const r = await remote(['cancel', '00000000-0000-4000-8000-000000000000', '--json']);
      expect(r.status, r.stderr).to.equal(2);
      expect(errorOf(json(r))).to.include({ status: 404 });
    });

    it('convert_userWithoutPlan_exit4', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const r = await remote(['convert', apk.path, '--json'], userToken);
      expect(r.status, r.stderr).to.equal(4);
      const error = errorOf(json(r));
      expect(error).to.include({ status: 402 });
      expect(error.code).to.be.oneOf(['NO_PLAN', 'NO_CREDITS', 'PLAN_EXPIRED']);
    });

  });

  describe('a corpus APK through the server', () => {
    let conversionId: string;
    let serverBytes: Buffer;

    it('convert_waitWithOutput_savesTheServersAab', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const out = join(dir, 'politedroid.aab');
      const r = await remote(['convert', apk.path, '--wait', '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      expect(doc).to.include({ ok: true, status: 'completed', output: out });
      expect(doc.conversionId).to.be.a('string');
      expect(doc.updates, 'live updates came through the SSE stream').to.equal('sse');
      expect(doc.logs).to.be.an('array').with.lengthOf.above(0);
      conversionId = doc.conversionId as string;
      const saved = readFileSync(out);
      serverBytes = await downloadFromServer(conversionId);
      expect(saved.equals(serverBytes), 'saved AAB equals the server download').to.equal(true);
      expect(doc.bytes).to.equal(serverBytes.length);
      expect(saved.subarray(0, 2).toString('latin1')).to.equal('PK');
      // Not a terminal: plain lines on stderr (upload, queue/stage, logs), no bar.
      expect(r.stderr).to.contain('Enviado: ag-politedroid.apk').and.contain('AAB salvo em');
      expectNoControlCharacters(r);
      expect(existsSync(`${out}.part`)).to.equal(false);
    });

    it('convert_splitApksObbAndAssetPack_oneServerConversionWithItsModules', async () => {
      const base = join(dir, 'base.apk');
      const abi = join(dir, 'split_config.x86_64.apk');
      const obb = join(dir, 'main.1.com.example.tiny.obb');
      writeFileSync(base, buildZip(tinyApkEntries()));
      writeFileSync(abi, buildZip([
        { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, split: 'config.x86_64' }) },
        { name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 },
      ]));
      writeFileSync(obb, Buffer.alloc(20_000, 5));
      const out = join(dir, 'set.aab');
      const r = await remote(['convert', base, abi, '--obb', obb, '--asset-pack', 'sons=*.mp3:on-demand', '--wait', '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      expect(doc).to.include({ ok: true, status: 'completed', output: out });
      const report = (doc.conversion as { report: { abis: string[]; modules: { name: string; kind: string; delivery?: string }[] } }).report;
      expect(report.abis).to.deep.equal(['arm64-v8a', 'x86_64']);
      expect(report.modules.map((m) => `${m.name}:${m.kind}:${m.delivery ?? ''}`)).to.deep.equal(['base:base:', 'sons:asset-pack:on-demand', 'obb_main:asset-pack:install-time']);
      expect(r.stderr).to.contain('Enviado: base.apk (+2)');
      // The engine's findings reach the service's stored report, its checklist and this JSON: the
      // x86_64 split's "library" is no ELF file.
      const row = (doc.checklist as { code: string; status: string; title: string }[]).find((c) => c.code === 'pageSize16k');
      expect(row).to.include({ status: 'warning' });
      expect(row!.title).to.contain('lib/x86_64/libfoo.so (não é um arquivo ELF)');
    });

    it('convert_aabAlone_serverMakesItsApk_savedAsDotApk_aabAmongOthersRefused', async () => {
      const apk = join(dir, 'kind.apk');
      writeFileSync(apk, buildZip(tinyApkEntries({ versionCode: 5, packageName: 'com.aabify.clikind' })));
      const aab = join(dir, 'Pacote Ação.aab');
      const first = await remote(['convert', apk, '--wait', '-o', aab, '--json']);
      expect(first.status, first.stderr).to.equal(0);
      // No -o: the APK is named after the bundle, accents kept, in the working directory.
      const r = await remote(['convert', aab, '--wait', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      expect(doc).to.include({ ok: true, status: 'completed', output: join(dir, 'Pacote Ação.apk') });
      const conversion = doc.conversion as { kind: string; apks: { packageName: string; signature: { testKey: boolean } } };
      expect(conversion.kind).to.equal('aab-to-apks');
      expect(conversion.apks.packageName).to.equal('com.aabify.clikind');
      expect(conversion.apks.signature.testKey).to.equal(true);
      expect((doc.app as { packageName: string }).packageName).to.equal('com.aabify.clikind');
      expect(r.stderr).to.contain('NÃO com a sua chave de upload').and.contain('APK salvo em');
      const saved = readFileSync(join(dir, 'Pacote Ação.apk'));
      expect(saved.equals(await downloadFromServer(doc.conversionId as string))).to.equal(true);
      expect(saved.includes(Buffer.from('AndroidManifest.xml'))).to.equal(true);
      // `download` names it as the server does.
      const again = await remote(['download', doc.conversionId as string, '--overwrite', '--json']);
      expect(again.status, again.stderr).to.equal(0);
      expect(json(again)).to.include({ ok: true, output: join(dir, 'Pacote Ação.apk') });

      const mixed = await remote(['convert', aab, apk, '--json']);
      expect(mixed.status).to.equal(2);
      expect(json(mixed)).to.deep.include({ ok: false });
      expect(mixed.stdout).to.contain(CONVERSION_MESSAGES.aabNotAlone);
    });

    it('convert_aabWithDevice_serverMakesTheProfilesSet_savedAsDotApks_badProfileOrApkRefusedBeforeUpload', async () => {
      const apk = join(dir, 'device.apk');
      writeFileSync(apk, buildZip(tinyApkEntries({ versionCode: 6, packageName: 'com.aabify.clidevice' })));
      const aab = join(dir, 'Pacote Aparelho.aab');
      const first = await remote(['convert', apk, '--wait', '-o', aab, '--json']);
      expect(first.status, first.stderr).to.equal(0);
      const r = await remote(['convert', aab, '--device', 'arm64-v8a_xxhdpi_pt-BR', '--wait', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      const doc = json(r);
      // No -o: the set is named after the bundle, accents kept, with .apks.
      expect(doc).to.include({ ok: true, status: 'completed', output: join(dir, 'Pacote Aparelho.apks') });
      const conversion = doc.conversion as { kind: string; options: unknown; apks: { device: { id: string }; apks: { path: string }[] } };
      expect(conversion.kind).to.equal('aab-to-apks');
      expect(conversion.options).to.deep.equal({ output: 'device-set', device: 'arm64-v8a_xxhdpi_pt-BR' });
      expect(conversion.apks.device.id).to.equal('arm64-v8a_xxhdpi_pt-BR');
      expect(conversion.apks.apks.map((a) => a.path)).to.include.members(['splits/base-master.apk', 'splits/base-arm64_v8a.apk']);
      expect(r.stderr).to.contain('Conjunto de APKs salvo em');
      const saved = readFileSync(join(dir, 'Pacote Aparelho.apks'));
      expect(saved.equals(await downloadFromServer(doc.conversionId as string))).to.equal(true);
      expect(saved.includes(Buffer.from('splits/base-master.apk'))).to.equal(true);

      // Refused before anything is sent: an unknown profile, a device set of an APK, --device with --local.
      const before = (await fetch(`${server.url}/api/conversion/history`, { headers: { authorization: `Bearer ${adminToken}` } }).then((x) => x.json())) as { total: number };
      const unknown = await remote(['convert', aab, '--device', 'galaxy-s99', '--json']);
      expect(unknown.status).to.equal(2);
      expect(unknown.stdout).to.contain('UNKNOWN_DEVICE_PROFILE').and.contain('arm64-v8a_xxhdpi_pt-BR');
      const onApk = await remote(['convert', apk, '--device', 'arm64-v8a_xxhdpi_pt-BR', '--json']);
      expect(onApk.status).to.equal(2);
      expect(onApk.stdout).to.contain('DEVICE_SET_NOT_FOR_APK').and.contain(CONVERSION_MESSAGES.deviceSetNotForApk);
      const local = await remote(['convert', '--local', apk, '-o', join(dir, 'x.aab'), '--device', 'arm64-v8a_xxhdpi_pt-BR']);
      expect(local.status).to.equal(2);
      expect(local.stderr).to.contain('aabify build-apks app.aab --device');
      const after = (await fetch(`${server.url}/api/conversion/history`, { headers: { authorization: `Bearer ${adminToken}` } }).then((x) => x.json())) as { total: number };
      expect(after.total).to.equal(before.total);
    });

    it('convert_waitHuman_thenStatus_showTheDownloadEstimatePerDevice', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const out = join(dir, 'politedroid-humano.aab');
      const r = await remote(['convert', apk.path, '--wait', '-o', out]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stderr, r.stderr).to.contain('Economia estimada por dispositivo (download pelo Google Play):');
      expect(r.stderr).to.match(/com o AAB × .+ com o APK/);
      const latest = await server.api('GET', '/conversion/history?limit=1', undefined, adminToken);
      const id = (latest.body as { conversions: { id: string }[] }).conversions[0]!.id;
      const status = await remote(['status', id]);
      expect(status.status, status.stderr).to.equal(0);
      expect(status.stdout).to.contain('Status:').and.contain('Economia estimada por dispositivo (download pelo Google Play):');
      expect(status.stdout.split('\n').filter((l) => / com o AAB × /.test(l) || /incompatível/.test(l))).to.have.length(3);
      expectNoControlCharacters(r);
      expectNoControlCharacters(status);
    });

    it('convert_outputExists_refusedBeforeUpload_exit1', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const out = join(dir, 'existe.aab');
      writeFileSync(out, 'já existe');
      const before = await server.api('GET', '/conversion/history?limit=100', undefined, adminToken);
      const r = await remote(['convert', apk.path, '-o', out, '--json']);
      expect(r.status).to.equal(1);
      expect(errorOf(json(r))).to.include({ code: 'OUTPUT_EXISTS' });
      const after = await server.api('GET', '/conversion/history?limit=100', undefined, adminToken);
      expect((after.body as { total: number }).total).to.equal((before.body as { total: number }).total);
    });

    it('convert_noWait_printsIdThenStatusLogsHistoryUsageDownloadJson', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const submitted = await remote(['convert', apk.path]);
      expect(submitted.status, submitted.stderr).to.equal(0);
      const id = submitted.stdout.trim();
      expect(id).to.match(/^[0-9a-f-]{36}$/);

      const followed = await remote(['logs', id, '--follow', '--json']);
      expect(followed.status, followed.stderr).to.equal(0);
      const logsDoc = json(followed);
      expect(logsDoc).to.include({ ok: true, conversionId: id, status: 'completed' });
      expect(logsDoc.logs).to.be.an('array').with.lengthOf.above(0);

      const status = await remote(['status', id, '--json']);
      expect(status.status, status.stderr).to.equal(0);
      expect(json(status)).to.include({ ok: true, conversionId: id, status: 'completed' });
      expect((json(status).conversion as Doc).canDownload).to.equal(true);

      const logs = await remote(['logs', id, '--json']);
      expect(logs.status, logs.stderr).to.equal(0);
      expect(json(logs).logs).to.be.an('array').with.lengthOf.above(0);

      const history = await remote(['history', '--status', 'completed', '--search', 'politedroid', '--page', '1', '--json']);
      expect(history.status, history.stderr).to.equal(0);
      const historyDoc = json(history);
      expect((historyDoc.conversions as Doc[]).map((c) => c.id)).to.include(id);
      expect(historyDoc).to.include({ page: 1 });

      const usage = await remote(['usage', '--json']);
      expect(usage.status, usage.stderr).to.equal(0);
      expect(json(usage).usage).to.be.an('object').that.has.property('canConvert', true);

      const out = join(dir, 'baixado.aab');
      const download = await remote(['download', id, '-o', out, '--json']);
      expect(download.status, download.stderr).to.equal(0);
      expect(json(download)).to.include({ ok: true, conversionId: id, output: out, resumedFrom: 0 });
      expect(readFileSync(out).equals(await downloadFromServer(id))).to.equal(true);

      for (const r of [submitted, followed, status, logs, history, usage, download]) expectNoControlCharacters(r);
    });

    it('download_partialFilePresent_resumesWithRange', async function () {
      if (!conversionId) throw new Error('depends on the conversion of the earlier test, which did not complete');
      const out = join(dir, 'retomado.aab');
      const half = Math.floor(serverBytes.length / 2);
      writeFileSync(`${out}.part`, serverBytes.subarray(0, half));
      writeFileSync(`${out}.part.json`, JSON.stringify({ conversionId }));
      const r = await remote(['download', conversionId, '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ ok: true, resumedFrom: half, bytes: serverBytes.length });
      expect(readFileSync(out).equals(serverBytes)).to.equal(true);
      expect(existsSync(`${out}.part`)).to.equal(false);
      expect(r.stderr).to.contain('Retomando o download');
    });

    it('download_partialOfAnotherConversion_startsAfresh', async function () {
      if (!conversionId) throw new Error('depends on the conversion of the earlier test, which did not complete');
      const out = join(dir, 'outro.aab');
      writeFileSync(`${out}.part`, Buffer.from('bytes de outra conversão'));
      writeFileSync(`${out}.part.json`, JSON.stringify({ conversionId: '00000000-0000-4000-8000-000000000000' }));
      const r = await remote(['download', conversionId, '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(json(r)).to.include({ resumedFrom: 0 });
      expect(readFileSync(out).equals(serverBytes)).to.equal(true);
    });

    it('download_outputExists_exit1_unlessOverwrite', async function () {
      if (!conversionId) throw new Error('depends on the conversion of the earlier test, which did not complete');
      const out = join(dir, 'politedroid.aab');
      const refused = await remote(['download', conversionId, '-o', out, '--json']);
      expect(refused.status).to.equal(1);
      expect(errorOf(json(refused))).to.include({ code: 'OUTPUT_EXISTS' });
      const replaced = await remote(['download', conversionId, '-o', out, '--overwrite', '--json']);
      expect(replaced.status, replaced.stderr).to.equal(0);
    });

    it('cancel_justSubmitted_cancelledOrAlreadyFinished', async function () {
      const apk = requireCorpusApk(this, 'ag-politedroid');
      const submitted = await remote(['convert', apk.path, '--json']);
      expect(submitted.status, submitted.stderr).to.equal(0);
      const id = json(submitted).conversionId as string;
      const r = await remote(['cancel', id, '--json']);
      const status = json(await remote(['status', id, '--json'])).status;
      if (r.status === 0) {
        expect(json(r)).to.include({ ok: true, conversionId: id });
        expect(status).to.equal('cancelled');
        const dl = await remote(['download', id, '-o', join(dir, 'cancelada.aab'), '--json']);
        expect(dl.status).to.equal(1);
        expect(errorOf(json(dl))).to.include({ code: 'CONVERSION_CANCELLED' });
      } else {
        // The conversion won the race: cancelling a finished conversion is refused (409 → exit 1).
        expect(r.status, r.stderr).to.equal(1);
        expect(status).to.equal('completed');
      }
    });
  });

  // Last: a server that mishandles a broken upload must not take the other cases down with it.
  describe('a broken APK', () => {
    it('convert_zipSignatureThenGarbage_conversionFails_exit1', async () => {
      const broken = join(dir, 'truncado.apk');
      writeFileSync(broken, Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(4096)]));
      const out = join(dir, 'truncado.aab');
      const r = await remote(['convert', broken, '--wait', '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(1);
      const doc = json(r);
      expect(doc).to.include({ ok: false, exitCode: 1 });
      expect((doc.error as Doc).message).to.be.a('string').and.not.equal('');
      if (doc.conversionId) {
        expect(doc.status).to.equal('failed');
        const logs = await remote(['logs', doc.conversionId as string, '--json']);
        expect(logs.status, logs.stderr).to.equal(0);
        const status = await remote(['status', doc.conversionId as string, '--json']);
        expect(json(status)).to.include({ status: 'failed' });
      }
      expect(existsSync(out)).to.equal(false);
      expectNoControlCharacters(r);
    });

    it('convert_brokenApk_exit1', async () => {
      const broken = join(dir, 'quebrado.apk');
      writeFileSync(broken, 'isto não é um APK, só texto\n');
      const r = await remote(['convert', broken, '--wait', '-o', join(dir, 'quebrado.aab'), '--json']);
      expect(r.status, r.stderr).to.equal(1);
      const doc = json(r);
      expect(doc.ok).to.equal(false);
      expect(doc.exitCode).to.equal(1);
      expect(existsSync(join(dir, 'quebrado.aab'))).to.equal(false);
      expectNoControlCharacters(r);
    });
  });

  describe('the live-connection cap', () => {
    it('convert_waitWhileTheAccountHoldsEveryLiveConnection_warnsWithTheServersMessageAndFollowsByPolling', async () => {
      const apk = join(dir, 'limite.apk');
      writeFileSync(apk, buildZip(tinyApkEntries()));
      const submitted = await remote(['convert', apk]);
      expect(submitted.status, submitted.stderr).to.equal(0);
      const otherId = submitted.stdout.trim();
      // The account's other pipelines hold every live connection the server allows it.
      const held: AbortController[] = [];
      try {
        for (let i = 0; i < CONVERSION_LIMITS.liveConnectionsPerUser; i++) {
          const controller = new AbortController();
          held.push(controller);
          const res = await fetch(`${server.url}/api/conversion/updates/${otherId}`, { headers: { authorization: `Bearer ${adminToken}` }, signal: controller.signal });
          expect(res.status).to.equal(200);
          await res.body!.getReader().read();
        }
        const out = join(dir, 'limite.aab');
        const r = await remote(['convert', apk, '--wait', '-o', out, '--json']);
        expect(r.status, r.stderr).to.equal(0);
        expect(json(r)).to.include({ ok: true, status: 'completed', updates: 'polling' });
        expect(r.stderr).to.contain(`aviso: ${CONVERSION_MESSAGES.tooManyLiveConnections}`);
      } finally {
        for (const controller of held) controller.abort();
      }
    });
  });
});
