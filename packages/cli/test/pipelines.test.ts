/**
 * The CLI as pipelines adopt it, with no path into this repository: `npm run pack:cli`'s tarball
 * installed into an empty prefix (`npm install -g --prefix`, offline: it must need nothing from
 * the registry) and run from a temporary directory with a PATH of only that prefix's bin and
 * node's directory; then the GitHub Action (action.yml) run step by step as GitHub's runner runs
 * it, installing that same tarball, in local mode and against a real server.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { createHash } from 'node:crypto';
import { GooglePlayStandIn, makeServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { requireOracles } from '../../converter/test/helpers/oracles.js';
import { requireCorpusApk } from '../../converter/test/helpers/corpus.js';
import { validateBundle } from '../../converter/test/oracle/tools.js';
import { REPO_ROOT, startServer, type TestServer } from './helpers/server.js';
import { runCompositeAction } from './helpers/actionRunner.js';

const CLI_PACKAGE = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { name: string; version: string };
const NODE_DIR = dirname(process.execPath);
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

type Doc = Record<string, unknown>;

function jsonOf(r: Run): Doc {
  try {
    return JSON.parse(r.stdout) as Doc;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${r.status}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
}

describe('pipelines: the packed CLI and the GitHub Action', function () {
  this.timeout(600_000);
  let work = '';
  let tarball = '';
  let server: TestServer;
  let adminToken = '';
  const adminEmail = 'ci@aabify.test';

  before(async function () {
    this.timeout(600_000);
    work = mkdtempSync(join(tmpdir(), 'aabify-pipelines-'));
    const packed = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'pack-cli.mjs'), '--pack-destination', join(work, 'pack')], { encoding: 'utf8' });
    expect(packed.status, packed.stderr).to.equal(0);
    tarball = packed.stdout.trim().split('\n').pop()!;
    server = await startServer();
    const setup = await server.api('POST', '/setup/initialize', { email: adminEmail, password: 'segredo123', name: 'CI' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    const token = await server.api('POST', '/auth/tokens', { name: 'pipelines' }, (setup.body as { token: string }).token);
    expect(token.status, JSON.stringify(token.body)).to.equal(201);
    adminToken = (token.body as { token: string }).token;
  });

  after(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A fresh directory outside the repository with the corpus APK copied in. */
  function sandbox(ctx: Mocha.Context, name: string): { dir: string; apk: string; packageName: string } {
    const corpus = requireCorpusApk(ctx, 'jx-small');
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    const apk = join(dir, 'app-release.apk');
    copyFileSync(corpus.path, apk);
    return { dir, apk, packageName: corpus.packageName };
  }

  describe('the tarball installed into an empty prefix', () => {
    let prefix = '';
    let home = '';

    /** The installed `aabify`, from a temporary cwd, with nothing of the repository on PATH. */
    function aabify(args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
      const env = { PATH: [join(prefix, 'bin'), NODE_DIR].join(':'), HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...extra };
      return run('aabify', args, { cwd, env });
    }

    before(async function () {
      prefix = join(work, 'prefix');
      home = join(work, 'home');
      mkdirSync(prefix);
      mkdirSync(home);
      const npm = await run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
        cwd: home,
        env: { PATH: `${NODE_DIR}:${SYSTEM_PATH}`, HOME: home, npm_config_cache: join(home, '.npm') },
      });
      expect(npm.status, npm.stderr).to.equal(0);
    });

    it('tarball_oneBundleNoDependencies_manifestFromCliPackage', () => {
      const files = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
      expect(files).to.deep.equal(['package/LICENSE', 'package/README.md', 'package/bin/aabify-main.cjs', 'package/bin/aabify.js', 'package/package.json']);
      const installed = join(prefix, 'lib', 'node_modules', ...CLI_PACKAGE.name.split('/'));
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Doc;
      expect(manifest).to.include({ name: CLI_PACKAGE.name, version: CLI_PACKAGE.version, license: 'MIT' });
      expect(manifest.engines).to.deep.equal({ node: '>=20.19' });
      expect(manifest.dependencies).to.deep.equal({});
      expect(manifest.bin).to.deep.equal({ aabify: 'bin/aabify.js' });
      expect(existsSync(join(installed, 'node_modules')), 'nothing installed beside the bundle').to.equal(false);
      expect(realpathSync(join(prefix, 'bin', 'aabify'))).to.equal(join(installed, 'bin', 'aabify.js'));
      const entry = readFileSync(join(installed, 'bin', 'aabify.js'), 'utf8');
      expect(entry.startsWith('#!/usr/bin/env node\n')).to.equal(true);
      const bundle = readFileSync(join(installed, 'bin', 'aabify-main.cjs'), 'utf8');
      // Only Node's own modules are imported: the engine, shared code and npm packages are inlined.
      const imports = [...entry.matchAll(/(?:^|;)import\s*(?:[^'"]*?from\s*)?["']([^"']+)["']/g), ...bundle.matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]);
      expect(imports.length).to.be.greaterThan(0);
      expect(imports.filter((i) => !i.startsWith('node:') && !builtinModules.includes(i))).to.deep.equal([]);
      expect(entry + bundle).to.not.match(/["']tsx(\/[^"']*)?["']/);
    });

    it('installed_version_printsPackageVersionAndServers', async () => {
      const alone = await aabify(['--version'], home);
      expect(alone.status, alone.stderr).to.equal(0);
      expect(alone.stdout.trim()).to.equal(CLI_PACKAGE.version);
      const connected = await aabify(['--version', '--json'], home, { AABIFY_URL: server.url });
      expect(connected.status, connected.stderr).to.equal(0);
      const health = await server.api('GET', '/health');
      expect(jsonOf(connected)).to.deep.include({ schemaVersion: 1, ok: true, name: CLI_PACKAGE.name, version: CLI_PACKAGE.version, server: { url: server.url, version: (health.body as Doc).version, status: 'ok' } });
    });

    it('installed_convertLocalInspectValidate_bundletoolAcceptsTheAab', async function () {
      const { dir, packageName } = sandbox(this, 'installed-local');
      const inspect = await aabify(['inspect', 'app-release.apk', '--json'], dir);
      expect(inspect.status, inspect.stderr).to.equal(0);
      expect((jsonOf(inspect).apk as Doc).packageName).to.equal(packageName);
      const convert = await aabify(['convert', '--local', 'app-release.apk', '-o', 'app-release.aab', '--json'], dir);
      expect(convert.status, convert.stderr).to.equal(0);
      const doc = jsonOf(convert);
      expect(doc).to.include({ schemaVersion: 1, ok: true, mode: 'local', conversionId: null, output: join(dir, 'app-release.aab'), bytes: statSync(join(dir, 'app-release.aab')).size });
      expect(doc.app).to.include({ packageName });
      const validate = await aabify(['validate', 'app-release.aab', '--json'], dir);
      expect(validate.status, validate.stderr).to.equal(0);
      expect(jsonOf(validate)).to.include({ schemaVersion: 1, ok: true, valid: true });
      const o = requireOracles(this, 'java', 'bundletoolJar');
      await validateBundle(o, join(dir, 'app-release.aab'));
    });

    it('installed_whoami_answersFromTheServer', async () => {
      const r = await aabify(['whoami', '--json'], home, { AABIFY_URL: server.url, AABIFY_TOKEN: adminToken });
      expect(r.status, r.stderr).to.equal(0);
      expect(jsonOf(r)).to.include({ schemaVersion: 1, ok: true, url: server.url, email: adminEmail, role: 'admin' });
    });
  });

  describe('the GitHub Action (action.yml) as the runner runs it', () => {
    const actionDir = REPO_ROOT;
    let runs = 0;

    /** A runner environment: node and the system's tools on PATH, nothing of the repository. */
    function runnerOptions(workspace: string) {
      runs += 1;
      const home = join(work, `runner-home-${runs}`);
      mkdirSync(home, { recursive: true });
      return { workspace, runnerTemp: join(work, `runner-temp-${runs}`), env: { PATH: `${NODE_DIR}:${SYSTEM_PATH}`, HOME: home, npm_config_cache: join(home, '.npm') } };
    }

    it('action_defaultCliVersion_acceptsThisPackageVersion', () => {
      const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };
      const [major, minor] = CLI_PACKAGE.version.split('.');
      // A caret range on the current major (or minor, before 1.0): the action keeps installing compatible CLIs.
      expect(action.inputs['cli-version'].default).to.equal(major === '0' ? `^0.${minor}.0` : `^${major}.0.0`);
    });

    it('action_localModeSigned_outputsAabAndWritesSummary', async function () {
      const { dir, packageName } = sandbox(this, 'gha-local');
      mkdirSync(join(dir, 'app', 'build', 'outputs', 'apk', 'release'), { recursive: true });
      copyFileSync(join(dir, 'app-release.apk'), join(dir, 'app', 'build', 'outputs', 'apk', 'release', 'app-release.apk'));
      rmSync(join(dir, 'app-release.apk'));
      // An upload key made by the same installed CLI, handed over as a base64 secret.
      const keyHome = join(work, 'keygen');
      mkdirSync(keyHome, { recursive: true });
      const npm = await run('npm', ['install', '--global', '--prefix', join(keyHome, 'p'), '--offline', '--no-audit', '--no-fund', tarball], { cwd: keyHome, env: { PATH: `${NODE_DIR}:${SYSTEM_PATH}`, HOME: keyHome } });
      expect(npm.status, npm.stderr).to.equal(0);
      const keygen = await run(join(keyHome, 'p', 'bin', 'aabify'), ['keygen', '-o', 'upload.p12', '--ks-pass', 'env:KS', '--json'], { cwd: keyHome, env: { PATH: NODE_DIR, KS: 'senha-do-ks' } });
      expect(keygen.status, keygen.stderr).to.equal(0);

      const result = await runCompositeAction(
        actionDir,
        {
          apk: 'app/**/release/*.apk',
          local: 'true',
          sign: 'true',
          keystore: readFileSync(join(keyHome, 'upload.p12')).toString('base64'),
          'keystore-password': 'senha-do-ks',
          'cli-tarball': tarball,
        },
        runnerOptions(dir),
      );
      expect(result.status, JSON.stringify(result.steps, null, 2)).to.equal(0);
      const aab = join(dir, 'app-release.aab');
      expect(result.outputs.aab).to.equal(aab);
      expect(result.outputs.size).to.equal(String(statSync(aab).size));
      expect(result.outputs['conversion-id']).to.equal('');
      const doc = JSON.parse(result.outputs.json) as Doc;
      expect(doc).to.include({ schemaVersion: 1, ok: true, mode: 'local', output: aab });
      expect((doc.signature as Doc).alias).to.equal('upload');
      expect(result.summary).to.contain('### aabify: AAB gerado').and.contain(`| App | \`${packageName}\` |`).and.contain('| Versão | 1.0 (código 1) |');
      expect(result.summary).to.contain('| Assinatura | chave de upload `upload`').and.contain('Download estimado pelo Google Play');
      expect(result.summary).to.match(/Nenhum aviso\.|\*\*Avisos \(\d+\)\*\*/);
      // The keystore never outlives the step, and its password never reaches the log.
      expect(readdirSync(join(work, `runner-temp-${runs}`)).filter((f) => f.startsWith('aabify-ks-'))).to.deep.equal([]);
      expect(result.steps.map((s) => s.stdout + s.stderr).join('')).to.not.contain('senha-do-ks');
    });

    it('action_localModePublishTrack_publishesTheWrittenAabToGooglePlay', async function () {
      const { dir, packageName } = sandbox(this, 'gha-play');
      const google = await new GooglePlayStandIn().start();
      try {
        const account = makeServiceAccount('acao');
        google.addServiceAccount(account);
        google.addApp(packageName);
        google.anyBundle = { versionCode: 1, packageName };
        const options = runnerOptions(dir);
        const result = await runCompositeAction(
          actionDir,
          {
            apk: 'app-release.apk',
            local: 'true',
            'publish-track': 'internal',
            'release-notes': 'Correções\nen-US:Fixes',
            'play-key': account.json,
            'package-name': packageName,
            'cli-tarball': tarball,
          },
          { ...options, env: { ...options.env, ...google.env } },
        );
        expect(result.status, JSON.stringify(result.steps, null, 2)).to.equal(0);
        // The installed CLI published the AAB the action wrote, with both languages' notes.
        expect(google.uploads.map((u) => u.sha256)).to.deep.equal([createHash('sha256').update(readFileSync(result.outputs.aab)).digest('hex')]);
        expect(google.commits[0]!.tracks.internal!.releases[0]).to.deep.include({
          status: 'draft',
          releaseNotes: [{ language: 'pt-BR', text: 'Correções' }, { language: 'en-US', text: 'Fixes' }],
        });
        expect(JSON.stringify(result.steps)).to.not.contain('PRIVATE KEY');
      } finally {
        await google.stop();
      }
    });

    it('action_serverMode_outputsConversionIdAndSummary', async function () {
      const { dir, packageName } = sandbox(this, 'gha-server');
      // A generous timeout: handed to the CLI (`--timeout`), never reached.
      const inputs = { apk: 'app-release.apk', output: 'release.aab', 'server-url': server.url, token: adminToken, timeout: '10m', 'cli-tarball': tarball };
      const result = await runCompositeAction(actionDir, inputs, runnerOptions(dir));
      expect(result.status, JSON.stringify(result.steps, null, 2)).to.equal(0);
      const aab = join(dir, 'release.aab');
      expect(result.outputs.aab).to.equal(aab);
      expect(result.outputs['conversion-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(result.outputs.size).to.equal(String(statSync(aab).size));
      const doc = JSON.parse(result.outputs.json) as Doc;
      expect(doc).to.include({ schemaVersion: 1, ok: true, mode: 'server', conversionId: result.outputs['conversion-id'], bytes: statSync(aab).size });
      const status = await server.api('GET', `/conversion/status/${result.outputs['conversion-id']}`, undefined, adminToken);
      expect(status.status).to.equal(200);
      expect(result.summary).to.contain(`| App | \`${packageName}\` |`).and.contain(`servidor, conversão \`${result.outputs['conversion-id']}\``);
    });

    it('action_serverModeNoWait_outputsOnlyTheConversionId', async function () {
      const { dir } = sandbox(this, 'gha-no-wait');
      const result = await runCompositeAction(actionDir, { apk: 'app-release.apk', wait: 'false', 'server-url': server.url, token: adminToken, 'cli-tarball': tarball }, runnerOptions(dir));
      expect(result.status, JSON.stringify(result.steps, null, 2)).to.equal(0);
      expect(result.outputs['conversion-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(result.outputs.aab).to.equal('');
      expect(existsSync(join(dir, 'app-release.aab'))).to.equal(false);
      expect(result.summary).to.contain(`Conversão \`${result.outputs['conversion-id']}\` na fila do servidor`);
    });

    it('action_serverModeBadTimeout_failsWithExit2BeforeUploading', async function () {
      const { dir } = sandbox(this, 'gha-bad-timeout');
      // The conversions' ids, not their states: the previous test's conversion may still be finishing.
      const conversionIds = async () => {
        const res = await server.api('GET', '/conversion/history', undefined, adminToken);
        return (res.body as { conversions: Array<{ id: string }> }).conversions.map((c) => c.id);
      };
      const before = await conversionIds();
      const result = await runCompositeAction(actionDir, { apk: 'app-release.apk', 'server-url': server.url, token: adminToken, timeout: 'dez minutos', 'cli-tarball': tarball }, runnerOptions(dir));
      expect(result.status).to.equal(2);
      expect(result.summary).to.contain('--timeout inválido');
      expect(await conversionIds()).to.deep.equal(before);
    });

    it('action_serverModeRevokedToken_failsWithExit3AndSaysWhyInSummary', async function () {
      const { dir } = sandbox(this, 'gha-bad-token');
      const result = await runCompositeAction(actionDir, { apk: 'app-release.apk', 'server-url': server.url, token: 'aab_nao_existe_0000000000000000', 'cli-tarball': tarball }, runnerOptions(dir));
      expect(result.status).to.equal(3);
      expect(result.outputs.aab).to.equal('');
      expect(result.summary).to.contain('### aabify: a conversão falhou');
    });

    it('action_apkGlobMatchesNothing_failsWithAnnotation', async function () {
      const { dir } = sandbox(this, 'gha-no-apk');
      const result = await runCompositeAction(actionDir, { apk: 'build/**/*.apk', local: 'true', 'cli-tarball': tarball }, runnerOptions(dir));
      expect(result.status).to.equal(2);
      expect(result.steps.at(-1)!.stdout).to.contain('::error title=aabify::nenhum arquivo encontrado para: build/**/*.apk');
    });
  });

  describe('the GitLab CI template (ci/gitlab/aabify.gitlab-ci.yml) as GitLab runs it', () => {
    it('gitlabTemplate_localMode_savesAabSummaryAndDotenv', async function () {
      const { dir, packageName } = sandbox(this, 'gitlab-local');
      mkdirSync(join(dir, 'out', 'release'), { recursive: true });
      copyFileSync(join(dir, 'app-release.apk'), join(dir, 'out', 'release', 'app-release.apk'));
      rmSync(join(dir, 'app-release.apk'));
      const template = parse(readFileSync(join(REPO_ROOT, 'ci', 'gitlab', 'aabify.gitlab-ci.yml'), 'utf8')) as Record<string, { variables: Record<string, string>; script: string[] }>;
      const job = template['.aabify'];
      // GitLab runs the job's script lines in one shell, with the variables in the environment;
      // `npm install --global` goes to a prefix of the test's own instead of the image's Node.
      const npmPrefix = join(work, 'gitlab-npm');
      const env = {
        ...job.variables,
        AABIFY_APK: 'out/**/*.apk',
        AABIFY_LOCAL: 'true',
        AABIFY_CLI_TARBALL: tarball,
        PATH: `${join(npmPrefix, 'bin')}:${NODE_DIR}:${SYSTEM_PATH}`,
        HOME: join(work, 'gitlab-home'),
        npm_config_prefix: npmPrefix,
      };
      mkdirSync(env.HOME, { recursive: true });
      const r = await run('bash', ['-c', job.script.join('\n')], { cwd: dir, env });
      expect(r.status, r.stdout + r.stderr).to.equal(0);
      const aab = join(dir, 'app-release.aab');
      expect(readFileSync(join(dir, 'aabify.env'), 'utf8')).to.equal(`AABIFY_AAB=${aab}\nAABIFY_CONVERSION_ID=\nAABIFY_AAB_SIZE=${statSync(aab).size}\n`);
      expect(JSON.parse(readFileSync(join(dir, 'aabify-result.json'), 'utf8'))).to.include({ schemaVersion: 1, ok: true, mode: 'local', output: aab });
      expect(readFileSync(join(dir, 'aabify-summary.md'), 'utf8')).to.contain(`| App | \`${packageName}\` |`);
      expect(r.stdout).to.contain('### aabify: AAB gerado');
    });
  });
});
