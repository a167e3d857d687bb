/**
 * `aabify keystore upload|show|delete` and `aabify convert --sign` against a real server (a
 * child process on embedded defaults), the bin spawned off a terminal: a keytool-made PKCS12
 * keystore stored with passwords from env:/file: sources, its metadata as JSON, a signed
 * conversion downloaded with -o that jarsigner verifies, the engine's codes on a wrong password
 * or alias (exit 1), `--sign` without a keystore (exit 2), and the removal.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYSTORE_ERROR_MESSAGES } from '@aabify/shared';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { pkcs12WithMacIterations } from '../../converter/test/helpers/keystores.js';
import { startServer, type TestServer } from './helpers/server.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const bin = CLI_BIN;
const PASS = 'senha-cli-123';
const ALIAS = 'upload';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}
type Doc = Record<string, unknown>;

function hasTool(name: string): boolean {
  return !spawnSync(name, ['-help'], { encoding: 'utf8' }).error;
}

describe('aabify keystore and convert --sign (server mode)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let dir: string;
  let token: string;
  let keystorePath: string;
  let sha256: string;

  function aabify(args: string[], env: Record<string, string> = {}): Promise<Run> {
    return new Promise((resolveRun, reject) => {
      const childEnv: NodeJS.ProcessEnv = cliEnv({
        XDG_CONFIG_HOME: join(dir, 'config'),
        AABIFY_POLL_INTERVAL: '500',
        AABIFY_URL: server.url,
        AABIFY_TOKEN: token,
        // Replacing the account's key takes its password (a token may not): given as CI would.
        AABIFY_PASSWORD: 'segredo123',
        ...env,
      });
      const child = spawn(process.execPath, [bin, ...args], { env: childEnv, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
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
    if (!hasTool('keytool')) {
      if (process.env.CI === 'true') throw new Error('keytool não encontrado (instale um JDK)');
      console.log('    (pulado: keytool não encontrado)');
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'aabify-cli-ks-'));
    keystorePath = join(dir, 'upload.p12');
    const gen = spawnSync(
      'keytool',
      ['-genkeypair', '-keystore', keystorePath, '-storetype', 'PKCS12', '-alias', ALIAS, '-keyalg', 'RSA', '-keysize', '2048', '-validity', '10000',
        '-dname', 'CN=Loja CLI, O=aabify, C=BR', '-storepass', PASS, '-keypass', PASS],
      { encoding: 'utf8' },
    );
    expect(gen.status, gen.stdout + gen.stderr).to.equal(0);
    const list = spawnSync('keytool', ['-list', '-v', '-keystore', keystorePath, '-storepass', PASS, '-alias', ALIAS], { encoding: 'utf8' });
    sha256 = /SHA256:\s*([0-9A-F:]+)/.exec(list.stdout)?.[1] ?? '';
    expect(sha256, list.stdout).to.have.length(95);

    server = await startServer();
    const setup = await server.api('POST', '/setup/initialize', { email: 'admin@aabify.test', password: 'segredo123', name: 'Admin' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    const created = await server.api('POST', '/auth/tokens', { name: 'testes do keystore' }, (setup.body as { token: string }).token);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    token = (created.body as { token: string }).token;
  });

  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('convertSign_withoutKeystore_exits2WithTheServersFieldMessage', async function () {
    const apk = requireCorpusApk(this, 'jx-small');
    const r = await aabify(['convert', apk.path, '--sign', '--json']);
    expect(r.status, r.stderr).to.equal(2);
    const error = json(r).error as Doc;
    expect(error).to.include({ code: 'INVALID_OPTIONS', status: 400 });
    expect(error.fields).to.have.property('options.sign').that.contains('cadastre antes um keystore');
  });

  it('keystoreShow_none_exits0SayingNoneIsStored', async () => {
    const r = await aabify(['keystore', 'show', '--json']);
    expect(r.status, r.stderr).to.equal(0);
    expect(json(r)).to.deep.equal({ schemaVersion: 1, ok: true, keystore: null });
    const human = await aabify(['keystore', 'show']);
    expect(human.status, human.stderr).to.equal(0);
    expect(human.stdout).to.contain('Nenhuma chave de upload cadastrada na conta.').and.contain('aabify keystore upload');
  });

  it('keystoreUpload_wrongPasswordOrAlias_exits1WithTheEngineCode', async () => {
    const wrong = await aabify(['keystore', 'upload', keystorePath, '--ks-pass', 'pass:errada', '--json']);
    expect(wrong.status, wrong.stderr).to.equal(1);
    expect(json(wrong).error).to.include({ code: 'KEYSTORE_PASSWORD', message: 'Senha do keystore incorreta.', status: 422 });
    const alias = await aabify(['keystore', 'upload', keystorePath, '--alias', 'outro', '--ks-pass', 'env:KS_PASS'], { KS_PASS: PASS });
    expect(alias.status, alias.stderr).to.equal(1);
    expect(alias.stderr).to.contain('Alias não encontrado no keystore.').and.contain('[KEYSTORE_ALIAS]');
    const missing = await aabify(['keystore', 'upload', keystorePath, '--ks-pass', 'env:NAO_DEFINIDA', '--json']);
    expect(missing.status).to.equal(2);
    expect((json(missing).error as Doc).message).to.contain('NAO_DEFINIDA');
    const bare = await aabify(['keystore', 'upload', keystorePath, '--ks-pass', PASS]);
    expect(bare.status).to.equal(2);
    expect(bare.stderr).to.contain('env:VARIAVEL');
  });

  it('keystoreUpload_overTheCaps_exits1WithTheCapCode', async () => {
    // The server opens it in a worker with the engine's caps: a MAC at 1,000,000 iterations.
    const hostile = join(dir, 'hostil.p12');
    writeFileSync(hostile, pkcs12WithMacIterations(PASS, 1_000_000));
    const r = await aabify(['keystore', 'upload', hostile, '--ks-pass', 'env:KS_PASS', '--json'], { KS_PASS: PASS });
    expect(r.status, r.stderr).to.equal(1);
    expect(json(r).error).to.include({ code: 'KEYSTORE_ITERATIONS', message: KEYSTORE_ERROR_MESSAGES.KEYSTORE_ITERATIONS, status: 422 });
  });

  it('keystore_uploadShowConvertSignDelete_aabVerifiesWithJarsigner', async function () {
    const apk = requireCorpusApk(this, 'jx-small');
    const passFile = join(dir, 'ks-pass.txt');
    writeFileSync(passFile, `${PASS}\n`);
    const up = await aabify(['keystore', 'upload', keystorePath, '--alias', ALIAS, '--ks-pass', `file:${passFile}`, '--json']);
    expect(up.status, up.stderr).to.equal(0);
    const upDoc = json(up);
    expect(upDoc.ok).to.equal(true);
    expect(upDoc.keystore).to.include({ alias: ALIAS, format: 'PKCS12', keyAlgorithm: 'RSA', keySize: 2048, certificateSha256: sha256, fileName: 'upload.p12' });
    expect(up.stdout).to.not.contain(PASS);

    const show = await aabify(['keystore', 'show', '--json']);
    expect(show.status, show.stderr).to.equal(0);
    expect(json(show).keystore).to.deep.equal(upDoc.keystore);
    const human = await aabify(['keystore', 'show']);
    expect(human.status, human.stderr).to.equal(0);
    expect(human.stdout).to.contain('Chave de upload cadastrada na conta:').and.contain(sha256).and.contain('CN=Loja CLI');

    // --sign merges into --options.
    const out = join(dir, 'signed.aab');
    const conv = await aabify(['convert', apk.path, '--sign', '--options', '{"splits":{"abi":true}}', '--wait', '-o', out, '--json', '--quiet']);
    expect(conv.status, conv.stderr).to.equal(0);
    const doc = json(conv);
    expect(doc).to.include({ ok: true, status: 'completed', output: out });
    const report = (doc.conversion as Doc).report as Doc;
    expect(report.signature).to.include({ alias: ALIAS, certificateSha256: sha256, signatureAlgorithm: 'SHA256withRSA' });
    expect(conv.stderr).to.contain(`Assinado com a chave de upload ${ALIAS}`);
    expect(existsSync(out)).to.equal(true);
    expect(readFileSync(out).includes(Buffer.from('META-INF/UPLOAD.RSA'))).to.equal(true);
    if (hasTool('jarsigner')) {
      const v = spawnSync('jarsigner', ['-verify', '-strict', '-keystore', keystorePath, '-storepass', PASS, out], { encoding: 'utf8' });
      expect(v.status, v.stdout + v.stderr).to.equal(0);
      expect(v.stdout).to.contain('jar verified');
    }

    const del = await aabify(['keystore', 'delete', '--json']);
    expect(del.status, del.stderr).to.equal(0);
    expect(json(del)).to.deep.equal({ schemaVersion: 1, ok: true, deleted: true });
    expect((await server.api('GET', '/account/keystore', undefined, token)).body).to.deep.equal({ keystore: null });
    const again = await aabify(['keystore', 'delete']);
    expect(again.status).to.equal(2);
    expect(again.stderr).to.contain('[KEYSTORE_NOT_FOUND]');
  });

  it('convert_ksFlagsInServerModeOrSignWithLocal_areUsageErrors', async () => {
    const apk = join(dir, 'x.apk');
    writeFileSync(apk, 'x');
    const remote = await aabify(['convert', apk, '--ks', keystorePath, '--ks-pass', 'pass:x', '--json']);
    expect(remote.status).to.equal(2);
    expect(json(remote).error).to.include({ code: 'SIGNING_OPTIONS' });
    const local = await aabify(['convert', '--local', apk, '-o', join(dir, 'x.aab'), '--sign']);
    expect(local.status).to.equal(2);
    expect(local.stderr).to.contain('--ks <keystore>');
  });
});
