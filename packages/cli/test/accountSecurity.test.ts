/**
 * The CLI and account protection, against a real server: `aabify login` gives the token it
 * makes the scopes asked for (defaults read, conversions, downloads), asks the two-factor code
 * when the account has it (the next stdin line), and leaves no session behind; a command its
 * token's scopes do not allow says how to log in with them; replacing the upload key takes the
 * account's password (a token may not).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { startServer, type TestServer } from './helpers/server.js';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}
type Doc = Record<string, unknown>;

const code = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });

describe('aabify login and account protection (scopes, two-factor sign-in)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let dir: string;
  const adminEmail = 'admin@aabify.test';
  const password = 'segredo123';
  let adminSession: string;

  function aabify(args: string[], input = '', env: Record<string, string | undefined> = {}): Promise<Run> {
    return new Promise((resolveRun, reject) => {
      const full: NodeJS.ProcessEnv = cliEnv({ XDG_CONFIG_HOME: join(dir, 'config') });
      delete full.AABIFY_URL;
      delete full.AABIFY_TOKEN;
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
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolveRun({ status, stdout, stderr });
      });
    });
  }
  const config = () => JSON.parse(readFileSync(join(dir, 'config', 'aabify', 'config.json'), 'utf8')) as { token: string; tokenId: string };
  const tokensOf = async (session: string) => (await server.api('GET', '/auth/tokens', undefined, session)).body as { tokens: Array<{ id: string; scopes: string[] }> };
  const sessionsOf = async (session: string) => ((await server.api('GET', '/auth/sessions', undefined, session)).body as { sessions: unknown[] }).sessions;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aabify-cli-security-'));
    server = await startServer();
    const setup = await server.api('POST', '/setup/initialize', { email: adminEmail, password, name: 'Admin' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    adminSession = (setup.body as { token: string }).token;
  });
  after(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('login_scopes_defaultAndAskedFor_invalidOnesAUsageError_noSessionLeftBehind', async () => {
    const plain = await aabify(['login', '--url', server.url, '--json'], `${adminEmail}\n${password}\n`);
    expect(plain.status, plain.stderr).to.equal(0);
    expect((JSON.parse(plain.stdout) as Doc).scopes).to.deep.equal(['read', 'conversions', 'downloads']);
    const asked = await aabify(['login', '--url', server.url, '--scopes', 'read, publishing', '--json'], `${adminEmail}\n${password}\n`);
    expect(asked.status, asked.stderr).to.equal(0);
    const listed = (await tokensOf(adminSession)).tokens.find((t) => t.id === config().tokenId);
    expect(listed?.scopes).to.deep.equal(['read', 'publishing']);
    // The session the login signed in with ended: only the setup's is left.
    expect(await sessionsOf(adminSession)).to.have.length(1);

    const bad = await aabify(['login', '--url', server.url, '--scopes', 'read,admin', '--json'], `${adminEmail}\n${password}\n`);
    expect(bad.status).to.equal(2);
    expect(bad.stdout).to.contain('INVALID_SCOPES').and.contain('admin');
  });

  it('commandOutsideTheTokensScopes_exit3_saysHowToLogInWithThem', async () => {
    const created = await server.api('POST', '/auth/tokens', { name: 'só downloads', scopes: ['downloads'] }, adminSession);
    const token = (created.body as { token: string }).token;
    const r = await aabify(['history', '--json'], '', { AABIFY_URL: server.url, AABIFY_TOKEN: token });
    expect(r.status).to.equal(3);
    const error = (JSON.parse(r.stdout) as { error: Doc }).error;
    expect(error.code).to.equal('TOKEN_SCOPE_MISSING');
    expect(error.message).to.contain('Na CLI: aabify login --scopes read,conversions,downloads');
  });

  it('keystoreDelete_withATokenAndNoPassword_refusedWithoutTouchingTheKey', async () => {
    const created = await server.api('POST', '/auth/tokens', { name: 'ci' }, adminSession);
    const token = (created.body as { token: string }).token;
    const r = await aabify(['keystore', 'delete', '--json'], '', { AABIFY_URL: server.url, AABIFY_TOKEN: token });
    expect(r.status).to.equal(2);
    expect((JSON.parse(r.stdout) as { error: Doc }).error).to.include({ code: 'MISSING_CREDENTIALS' });
  });

  it('login_accountWithTwoFactor_codeOnTheNextLine_wrongCodeRefused', async () => {
    const email = 'dois-fatores@aabify.test';
    // Sign-up answers the new account's session.
    const signedUp = await server.api('POST', '/auth/register', { acceptTerms: true, email, password });
    expect(signedUp.status).to.equal(201);
    const session = (signedUp.body as { token: string }).token;
    const setup = (await server.api('POST', '/auth/2fa/setup', undefined, session)).body as { secret: string };
    expect((await server.api('POST', '/auth/2fa/enable', { code: code(setup.secret) }, session)).status).to.equal(200);

    const missing = await aabify(['login', '--url', server.url, '--json'], `${email}\n${password}\n`);
    expect(missing.status).to.equal(2);
    expect(missing.stdout).to.contain('MISSING_TWO_FACTOR_CODE');
    const wrong = await aabify(['login', '--url', server.url, '--json'], `${email}\n${password}\n${code(setup.secret, Date.now() - 300_000)}\n`);
    expect(wrong.status).to.equal(3);
    expect(wrong.stdout).to.contain('TWO_FACTOR_CODE_INVALID');

    const r = await aabify(['login', '--url', server.url, '--json'], `${email}\n${password}\n${code(setup.secret, Date.now() + 30_000)}\n`);
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout) as Doc).to.include({ ok: true, email });
    const me = await server.api('GET', '/auth/me', undefined, config().token);
    expect(me.status).to.equal(200);
    // Only the session this test opened through the API is left.
    expect(await sessionsOf(session)).to.have.length(1);
  });
});
