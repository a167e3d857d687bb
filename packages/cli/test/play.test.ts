/**
 * Publishing to Google Play from the CLI as a pipeline runs it (docs/play.md): the built bin
 * spawned, never on a terminal; a real server (child process); Google is the stand-in of
 * converter/test/helpers/googlePlayStandIn.ts on loopback (GOOGLE_OAUTH_TOKEN_URL and
 * GOOGLE_PLAY_API_URL point the server and the CLI at it). Asserts the `--json` documents, the
 * pt-BR messages and the documented exit codes (7 release refused, 8 credentials, 5 quota).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAY_ERROR_MESSAGES, type PlayErrorCode } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, STAND_IN_ERRORS, makeServiceAccount, type TestServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { startServer, type TestServer } from './helpers/server.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}
type Doc = Record<string, unknown>;

const PKG = 'com.aabify.cli';

describe('aabify publish / convert --publish / play credentials (Google Play)', function () {
  this.timeout(240_000);
  let google: GooglePlayStandIn;
  let server: TestServer;
  let account: TestServiceAccount;
  let dir: string;
  let token: string;
  let keyFile: string;
  let aabFile: string;
  let aab: Buffer;

  function aabify(args: string[], env: Record<string, string | undefined> = {}, input = ''): Promise<Run> {
    return new Promise((resolveRun, reject) => {
      const full: NodeJS.ProcessEnv = cliEnv({ XDG_CONFIG_HOME: join(dir, 'config'), AABIFY_POLL_INTERVAL: '200', AABIFY_URL: server.url, AABIFY_TOKEN: token, ...google.env });
      delete full.AABIFY_PLAY_KEY;
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete full[k];
        else full[k] = v;
      }
      const child = spawn(process.execPath, [CLI_BIN, ...args], { env: full, cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.stdin.end(input);
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolveRun({ status, stdout, stderr });
      });
    });
  }

  function json(r: Run): Doc {
    try {
      return JSON.parse(r.stdout) as Doc;
    } catch {
      throw new Error(`stdout is not one JSON document (exit ${r.status}):\n${r.stdout}\nstderr:\n${r.stderr}`);
    }
  }

  before(async function () {
    this.timeout(240_000);
    google = await new GooglePlayStandIn().start();
    account = makeServiceAccount('pipeline');
    dir = mkdtempSync(join(tmpdir(), 'aabify-cli-play-'));
    keyFile = join(dir, 'chave.json');
    writeFileSync(keyFile, account.json);
    writeFileSync(join(dir, 'app.apk'), buildZip(tinyApkEntries({ versionCode: 9, packageName: PKG })));
    server = await startServer(google.env);
    const setup = await server.api('POST', '/setup/initialize', { email: 'admin@aabify.test', password: 'segredo123', name: 'Admin' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    token = (setup.body as { token: string }).token;
  });
  after(async () => {
    await server?.stop();
    await google?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    google.reset();
    google.addServiceAccount(account);
  });

  it('playCredentials_setShowTest_storedOnTheServerOnlyEmailShown', async () => {
    let r = await aabify(['play', 'credentials', 'show', '--json']);
    expect(r.status, r.stderr).to.equal(0);
    expect(json(r)).to.deep.equal({ schemaVersion: 1, ok: true, credentials: null });
    r = await aabify(['play', 'credentials', 'show']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('Nenhuma chave do Google Play cadastrada na conta.');
    r = await aabify(['play', 'credentials', 'set', keyFile, '--json']);
    expect(r.status, r.stderr).to.equal(0);
    const doc = json(r);
    expect(doc).to.include({ ok: true, schemaVersion: 1 });
    expect(doc.credentials).to.include({ clientEmail: account.clientEmail, projectId: account.projectId });
    expect(r.stdout + r.stderr).to.not.contain('PRIVATE KEY');
    r = await aabify(['play', 'credentials', 'show']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(account.clientEmail);
    google.addApp(PKG);
    r = await aabify(['play', 'credentials', 'test', '--package', PKG, '--json']);
    expect(r.status, r.stderr).to.equal(0);
    expect(json(r)).to.include({ ok: true, packageName: PKG });
    r = await aabify(['play', 'credentials', 'test', '--package', 'com.nao.existe', '--json']);
    expect(r.status).to.equal(7);
    expect(json(r).error).to.include({ code: 'PLAY_APP_NOT_FOUND', message: PLAY_ERROR_MESSAGES.PLAY_APP_NOT_FOUND });
  });

  it('convertWaitPublishInternal_json_givesThePlayVersionCodeAndTrack', async () => {
    expect((await aabify(['play', 'credentials', 'set', keyFile])).status).to.equal(0);
    google.addApp(PKG);
    google.anyBundle = { versionCode: 9, packageName: PKG };
    const r = await aabify(['convert', 'app.apk', '--wait', '--publish', 'internal', '--release-notes', 'Versão de teste', '-o', 'app.aab', '--json']);
    expect(r.status, r.stderr).to.equal(0);
    const doc = json(r);
    expect(doc.publication).to.include({ mode: 'server', track: 'internal', versionCode: 9, releaseStatus: 'draft', packageName: PKG, status: 'completed' });
    aabFile = join(dir, 'app.aab');
    aab = readFileSync(aabFile);
    // Google received the bytes of the AAB the CLI downloaded: the converted one.
    expect(google.uploads.map((u) => u.sha256)).to.deep.equal([createHash('sha256').update(aab).digest('hex')]);
    expect(google.commits[0]!.tracks.internal!.releases[0]).to.include({ status: 'draft' });
    expect(r.stderr).to.contain('versionCode 9');
    // The server recorded it in the conversion's history.
    const list = await server.api('GET', `/publications?conversionId=${String(doc.conversionId)}`, undefined, token);
    expect((list.body as { publications: Array<{ versionCode: number }> }).publications.map((p) => p.versionCode)).to.deep.equal([9]);
  });

  it('publishFileWithPlayKey_direct_noServerInvolved', async () => {
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 9, packageName: PKG });
    // No server at all: a URL nothing listens on.
    const r = await aabify(['publish', aabFile, '--play-key', keyFile, '--package', PKG, '--track', 'beta', '--release-status', 'inProgress', '--rollout', '20', '--json'], {
      AABIFY_URL: 'http://127.0.0.1:9',
      AABIFY_TOKEN: undefined,
    });
    expect(r.status, r.stderr).to.equal(0);
    expect(json(r).publication).to.include({ mode: 'direct', track: 'beta', versionCode: 9, releaseStatus: 'inProgress' });
    expect(google.commits[0]!.tracks.beta!.releases[0]).to.include({ status: 'inProgress', userFraction: 0.2 });
    // The key in a CI secret (its JSON in AABIFY_PLAY_KEY) works the same.
    google.reset();
    google.addServiceAccount(account);
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 9, packageName: PKG });
    const fromEnv = await aabify(['publish', aabFile, '--package', PKG, '--track', 'internal', '--json'], { AABIFY_PLAY_KEY: account.json, AABIFY_TOKEN: undefined });
    expect(fromEnv.status, fromEnv.stderr).to.equal(0);
  });

  it('publishFile_packageReadFromTheBundle_aWrongPackageRefusedBeforeGoogle', async () => {
    google.addApp(PKG);
    google.expectBundle(aab, { versionCode: 9, packageName: PKG });
    // No --package: the app is the AAB's own (its base manifest).
    const r = await aabify(['publish', aabFile, '--play-key', keyFile, '--track', 'internal', '--json'], { AABIFY_TOKEN: undefined });
    expect(r.status, r.stderr).to.equal(0);
    expect(json(r).publication).to.include({ mode: 'direct', packageName: PKG, versionCode: 9 });
    // A --package that is not the bundle's: a usage error, and Google is never asked.
    google.reset();
    google.addServiceAccount(account);
    const wrong = await aabify(['publish', aabFile, '--play-key', keyFile, '--package', 'com.outro.app', '--track', 'internal', '--json'], { AABIFY_TOKEN: undefined });
    expect(wrong.status).to.equal(2);
    expect(json(wrong)).to.deep.include({ ok: false });
    expect(wrong.stdout + wrong.stderr).to.contain(`O AAB é do pacote ${PKG}, não de com.outro.app`);
    expect(google.commits).to.deep.equal([]);
  });

  const refusals: Array<[PlayErrorCode, number, () => void, string[]?]> = [
    ['PLAY_APP_NOT_FOUND', 7, () => undefined],
    ['PLAY_PERMISSION_DENIED', 8, () => google.addApp(PKG, { grantedTo: [] })],
    ['PLAY_VERSION_CODE_USED', 7, () => google.addApp(PKG, { usedVersionCodes: [9] })],
    ['PLAY_PACKAGE_MISMATCH', 7, () => (google.addApp(PKG), google.expectBundle(aab, { versionCode: 9, packageName: 'com.outro.app' }))],
    ['PLAY_UPLOAD_KEY_MISMATCH', 7, () => google.addApp(PKG, { uploadKeySha256: 'EF'.repeat(32) })],
    ['PLAY_TRACK_NOT_FOUND', 7, () => google.addApp(PKG), ['--track', 'qa-fechado']],
    ['PLAY_DRAFT_APP_ONLY', 7, () => google.addApp(PKG, { draft: true }), ['--release-status', 'completed']],
    ['PLAY_QUOTA_EXCEEDED', 5, () => (google.addApp(PKG), google.failNext('edit', STAND_IN_ERRORS.quota()))],
    ['PLAY_UNAVAILABLE', 6, () => (google.addApp(PKG), google.failNext('token', STAND_IN_ERRORS.unavailable()))],
    ['PLAY_AUTH_FAILED', 8, () => (google.reset(), google.addApp(PKG))],
  ];
  for (const [code, exit, arrange, extra] of refusals) {
    it(`publishDirect_${code}_exits${exit}WithItsMessage`, async () => {
      google.expectBundle(aab, { versionCode: 9, packageName: PKG });
      arrange();
      const r = await aabify(['publish', aabFile, '--play-key', keyFile, '--package', PKG, '--track', 'internal', ...(extra ?? []), '--json']);
      expect(r.status, r.stderr).to.equal(exit);
      const doc = json(r);
      expect(doc).to.include({ ok: false, exitCode: exit });
      expect(doc.error).to.include({ code, message: PLAY_ERROR_MESSAGES[code] });
      expect(google.openEdits).to.deep.equal([]);
    });
  }

  it('publishDirect_notAKeyFile_exits8PlayKeyInvalid', async () => {
    const bad = join(dir, 'nao-e-chave.json');
    writeFileSync(bad, '{"type":"authorized_user"}');
    const r = await aabify(['publish', aabFile, '--play-key', bad, '--package', PKG, '--track', 'internal']);
    expect(r.status).to.equal(8);
    expect(r.stderr).to.contain(PLAY_ERROR_MESSAGES.PLAY_KEY_INVALID);
  });

  it('publishConversionId_serverRefusal_exits7WithTheMessage', async () => {
    expect((await aabify(['play', 'credentials', 'set', keyFile])).status).to.equal(0);
    const history = await server.api('GET', '/conversion/history', undefined, token);
    const id = (history.body as { conversions: Array<{ id: string }> }).conversions[0]!.id;
    google.addApp(PKG, { tracks: ['internal'] });
    google.expectBundle(aab, { versionCode: 9, packageName: PKG });
    const r = await aabify(['publish', id, '--track', 'alpha', '--json']);
    expect(r.status, r.stderr).to.equal(7);
    expect(json(r).error).to.include({ code: 'PLAY_TRACK_NOT_FOUND', message: PLAY_ERROR_MESSAGES.PLAY_TRACK_NOT_FOUND });
    expect(r.stderr).to.contain('Track not found: alpha');
  });

  it('publish_badReleaseFlags_exit2BeforeAnythingIsSent', async () => {
    let r = await aabify(['publish', aabFile, '--play-key', keyFile, '--package', PKG, '--track', 'production', '--release-status', 'inProgress']);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.contain('porcentagem');
    r = await aabify(['convert', 'app.apk', '--publish', 'internal', '--rollout', '10']);
    expect(r.status).to.equal(2);
    expect(google.calls).to.deep.equal([]);
  });
});
