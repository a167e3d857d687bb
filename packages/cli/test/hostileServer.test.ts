/**
 * The CLI against a hostile or compromised server and hostile CI inputs: a fake API on
 * 127.0.0.1 (node:http, answers chosen per test) and the built bin spawned off a terminal, as a
 * pipeline runs it. What a server sends must never become a dotenv variable, a GitHub Actions
 * workflow command or a terminal escape; a secret must never be echoed; a planted symlink must
 * never redirect a download; an endless answer must never exhaust memory.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli, type CliRun } from './helpers/cli.js';

type Run = CliRun;
type Doc = Record<string, unknown>;
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const ID = '0b7c6f3e-2f7a-4d55-9a55-3f1c2b9d8e11';

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Lines a GitHub runner would take as a workflow command (it trims leading blanks first). */
function workflowCommandLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/).filter((l) => l.trimStart().startsWith('::') || l.includes('##['));
}

describe('aabify against a hostile server', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Server;
  let url: string;
  let routes: Record<string, Handler> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-hostile-'));
    server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      const route = Object.entries(routes).find(([p]) => `${req.method} ${path}`.startsWith(p));
      if (route) route[1](req, res);
      else sendJson(res, 404, { message: 'Não encontrado.', code: 'NOT_FOUND' });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    routes = {};
  });

  function aabify(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
    const childEnv = cliEnv({ XDG_CONFIG_HOME: join(dir, 'config'), AABIFY_URL: url, AABIFY_TOKEN: 'token-de-teste', AABIFY_POLL_INTERVAL: '200' });
    delete childEnv.AABIFY_PLAY_KEY;
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete childEnv[k];
      else childEnv[k] = v;
    }
    return runCli(args, { env: childEnv, cwd: dir, timeoutMs: 50_000 });
  }

  function errorOf(r: Run): Doc {
    const doc = JSON.parse(r.stdout) as Doc;
    expect(doc.ok).to.equal(false);
    return doc.error as Doc;
  }

  function apk(): string {
    const path = join(dir, 'app.apk');
    writeFileSync(path, 'PK\x03\x04 não importa: o servidor é falso');
    return path;
  }

  describe('conversion ids', () => {
    it('convert_serverIdWithNewlines_refusedExit6_dotenvHasNoInjectedVariable', async () => {
      routes['POST /api/conversion/convert'] = (req, res) => {
        req.resume().on('end', () => sendJson(res, 201, { conversionId: 'abc\nEVIL=1\nPATH=/tmp/evil', status: 'queued' }));
      };
      const dotenv = join(dir, 'ids.env');
      const r = await aabify(['convert', apk(), '--dotenv', dotenv, '--json']);
      expect(r.status, r.stderr).to.equal(6);
      expect(errorOf(r)).to.include({ code: 'INVALID_CONVERSION_ID' });
      expect(r.stderr).to.contain('id de conversão inválido');
      const lines = readFileSync(dotenv, 'utf8').split('\n');
      expect(lines.filter((l) => /^(EVIL|PATH)=/.test(l))).to.deep.equal([]);
      expect(lines).to.include('AABIFY_CONVERSION_ID=');
      expect(`${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^(EVIL|PATH)=/.test(l))).to.deep.equal([]);
    });

    it('convert_serverUuid_printedAndWrittenToDotenv', async () => {
      routes['POST /api/conversion/convert'] = (req, res) => {
        req.resume().on('end', () => sendJson(res, 201, { conversionId: ID, status: 'queued' }));
      };
      const dotenv = join(dir, 'ok.env');
      const r = await aabify(['convert', apk(), '--dotenv', dotenv]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout.trim()).to.equal(ID);
      expect(readFileSync(dotenv, 'utf8')).to.contain(`AABIFY_CONVERSION_ID=${ID}\n`);
    });

    it('status_serverAnswersAnotherMalformedId_refusedExit6', async () => {
      routes[`GET /api/conversion/status/${ID}`] = (_req, res) => sendJson(res, 200, { id: `${ID}\n::add-mask::x`, status: 'queued' });
      const r = await aabify(['status', ID, '--json']);
      expect(r.status, r.stderr).to.equal(6);
      expect(errorOf(r)).to.include({ code: 'INVALID_CONVERSION_ID' });
    });
  });

  describe('Google Play key', () => {
    it('publish_playKeyNeitherFileNorJson_secretNeverEchoed', async () => {
      const aab = join(dir, 'app.aab');
      writeFileSync(aab, 'x');
      const secret = 'ZXlKaGJHY2lPaUpTVXpJMU5pSjkuc2VncmVkby1kYS1jb250YS1kZS1zZXJ2aWNv';
      const summary = join(dir, 'play-summary.md');
      for (const [args, env, source] of [
        [['--play-key', secret], {}, '--play-key'],
        [[], { AABIFY_PLAY_KEY: secret }, 'AABIFY_PLAY_KEY'],
      ] as const) {
        const r = await aabify(['publish', aab, '--track', 'internal', '--json', ...args], { ...env, AABIFY_TOKEN: undefined });
        expect(r.status, r.stderr).to.equal(2);
        expect(errorOf(r)).to.include({ code: 'PLAY_KEY_NOT_FOUND' });
        expect(r.stdout + r.stderr).not.to.contain(secret);
        expect(r.stderr).to.contain(source).and.to.contain('nem');
      }
      // convert --publish checks the key before the upload, with the same message.
      const r = await aabify(['convert', apk(), '--publish', 'internal', '--play-key', secret, '--summary', summary, '--json']);
      expect(r.status, r.stderr).to.equal(2);
      expect(r.stdout + r.stderr + readFileSync(summary, 'utf8')).not.to.contain(secret);
    });
  });

  describe('resumable download', () => {
    const aabBytes = Buffer.from('PK\x03\x04 bytes do AAB do servidor');

    beforeEach(() => {
      routes[`GET /api/conversion/status/${ID}`] = (_req, res) => sendJson(res, 200, { id: ID, status: 'completed', canDownload: true, fileName: 'app.apk' });
      routes[`GET /api/conversion/download/${ID}`] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(aabBytes.length) });
        res.end(aabBytes);
      };
    });

    it('download_metadataPathIsSymlink_refused_victimUntouched', async () => {
      const victim = join(dir, 'vitima-meta.txt');
      writeFileSync(victim, 'conteúdo da vítima\n');
      const out = join(dir, 'meta-link.aab');
      symlinkSync(victim, `${out}.part.json`);
      const r = await aabify(['download', ID, '-o', out, '--json']);
      expect(readFileSync(victim, 'utf8')).to.equal('conteúdo da vítima\n');
      expect(r.status, r.stderr).to.equal(1);
      expect(errorOf(r)).to.include({ code: 'DOWNLOAD_PATH_UNSAFE' });
    });

    it('download_partPathIsSymlink_refused_victimUntouched', async () => {
      const victim = join(dir, 'vitima-part.txt');
      writeFileSync(victim, 'conteúdo da vítima\n');
      const out = join(dir, 'part-link.aab');
      symlinkSync(victim, `${out}.part`);
      writeFileSync(`${out}.part.json`, JSON.stringify({ conversionId: ID }));
      const r = await aabify(['download', ID, '-o', out, '--json']);
      expect(readFileSync(victim, 'utf8')).to.equal('conteúdo da vítima\n');
      expect(r.status, r.stderr).to.equal(1);
      expect(errorOf(r)).to.include({ code: 'DOWNLOAD_PATH_UNSAFE' });
    });

    it('download_regularFiles_savesTheAab', async () => {
      const out = join(dir, 'normal.aab');
      const r = await aabify(['download', ID, '-o', out, '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(readFileSync(out).equals(aabBytes)).to.equal(true);
    });
  });

  describe('server text on a terminal and in CI logs', () => {
    const hostile = 'falhou\x1b]0;titulo\x07\x1b[31m\n::add-mask::segredo\r\n  ::error::injetado ##[warning]legado\x9b2J';

    function expectClean(r: Run): void {
      const all = r.stdout + r.stderr;
      // eslint-disable-next-line no-control-regex
      expect(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(all), JSON.stringify(all)).to.equal(false);
      expect(workflowCommandLines(all), all).to.deep.equal([]);
    }

    it('status_failedConversionWithEscapesAndWorkflowCommands_printedInert', async () => {
      routes[`GET /api/conversion/status/${ID}`] = (_req, res) =>
        sendJson(res, 200, { id: ID, status: 'failed', error: hostile, fileName: `app\n::set-output name=x::y.apk` });
      const r = await aabify(['status', ID]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('falhou');
      expectClean(r);
    });

    it('whoami_serverErrorMessageWithWorkflowCommand_printedInert', async () => {
      routes['GET /api/auth/me'] = (_req, res) => sendJson(res, 400, { message: hostile, code: 'BAD\n::error::x', fields: { ['e\n::warning::']: hostile } });
      for (const json of [[], ['--json']]) {
        const r = await aabify(['whoami', ...json]);
        expect(r.status, r.stderr).to.equal(2);
        expectClean(r);
      }
    });

    it('logs_multiLineServerLog_continuationLinesIndentedAndInert', async () => {
      routes[`GET /api/conversion/logs/${ID}`] = (_req, res) => sendJson(res, 200, { logs: [{ id: '1', level: 'info', message: `primeira linha\n::stop-commands::tok\nterceira` }] });
      const r = await aabify(['logs', ID]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('primeira linha');
      expect(r.stdout).to.contain('terceira');
      expectClean(r);
    });
  });

  describe('endless answers', () => {
    it('whoami_jsonBodyOverTheCap_refusedExit6', async () => {
      routes['GET /api/auth/me'] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      };
      const r = await aabify(['whoami', '--json']);
      expect(r.status, r.stderr).to.equal(6);
      expect(errorOf(r)).to.include({ code: 'RESPONSE_TOO_LARGE' });
    });
  });

  describe('a conversion that never ends', () => {
    /** A server whose conversion stays `processing` for ever; counts the uploads it received. */
    function neverEnding(): { uploads: () => number } {
      let uploads = 0;
      routes['POST /api/conversion/convert'] = (req, res) => {
        uploads++;
        req.resume().on('end', () => sendJson(res, 201, { conversionId: ID, status: 'queued' }));
      };
      routes[`GET /api/conversion/status/${ID}`] = (_req, res) => sendJson(res, 200, { id: ID, status: 'processing', progress: 40, fileName: 'app.apk' });
      routes[`GET /api/conversion/logs/${ID}`] = (_req, res) => sendJson(res, 200, { logs: [] });
      return { uploads: () => uploads };
    }

    it('convertWait_timeoutPasses_exit124_conversionIdAndTheWayToFollowIt', async () => {
      const server = neverEnding();
      const started = Date.now();
      const r = await aabify(['convert', apk(), '-o', join(dir, 'never.aab'), '--timeout', '2s', '--json']);
      const tookMs = Date.now() - started;
      expect(r.status, r.stderr).to.equal(124);
      const doc = JSON.parse(r.stdout) as Doc;
      expect(doc).to.include({ ok: false, conversionId: ID, status: 'processing', exitCode: 124 });
      expect(doc.error).to.include({ code: 'WAIT_TIMEOUT' });
      expect(r.stderr).to.contain(`não terminou em 2s; ela continua no servidor: aabify status ${ID}`);
      expect(server.uploads()).to.equal(1);
      // Gave up after the 2 s, not at some later poll or the CI job's limit.
      expect(tookMs).to.be.below(20_000);
    });

    it('logsFollow_timeoutFromTheEnvironment_exit124', async () => {
      neverEnding();
      const r = await aabify(['logs', ID, '--follow'], { AABIFY_WAIT_TIMEOUT: '1' });
      expect(r.status, r.stderr).to.equal(124);
      expect(r.stderr).to.contain('[WAIT_TIMEOUT]');
    });

    it('convert_badTimeout_exit2_beforeTheUpload', async () => {
      const server = neverEnding();
      for (const args of [['--timeout', 'dez minutos'], ['--timeout', '0s'], ['--timeout', '2d']]) {
        const r = await aabify(['convert', apk(), '--wait', ...args, '--json']);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
        expect(errorOf(r)).to.include({ code: 'INVALID_TIMEOUT' });
      }
      // Without waiting there is nothing to time out: said, not ignored.
      const noWait = await aabify(['convert', apk(), '--timeout', '30m', '--json']);
      expect(noWait.status, noWait.stderr).to.equal(2);
      expect(errorOf(noWait)).to.include({ code: 'INVALID_TIMEOUT' });
      expect(server.uploads()).to.equal(0);
    });
  });

  describe('keygen', () => {
    it('keygen_overwriteOverAWorldReadableFile_newKeystoreIsMode600', async function () {
      if (process.platform === 'win32') {
        console.log('    (pulado: Windows não tem modos de arquivo Unix como 0600)');
        this.skip();
      }
      const out = join(dir, 'upload.p12');
      writeFileSync(out, 'antigo', { mode: 0o644 });
      const r = await aabify(['keygen', '-o', out, '--ks-pass', 'pass:senha-123456', '--overwrite', '--json']);
      expect(r.status, r.stderr).to.equal(0);
      expect(statSync(out).mode & 0o777).to.equal(0o600);
    });
  });
});
