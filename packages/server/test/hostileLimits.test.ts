/**
 * Hostile clients: each test performs the attack through real
 * HTTP against a server on the embedded Postgres and checks what must hold afterwards.
 * Stalls are measured by the answer time of a parallel /api/health, never by timing the attack.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { Pool } from 'undici';
import { generateUploadKeystore } from '@aabify/converter';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import { startTestServer, TEST_PASSWORD_PARAMS, type TestServer } from './helpers/server.js';
import { api, type JsonBody } from './helpers/http.js';
import { buildAdmin, buildUser, DEFAULT_PASSWORD, tokenFor } from './helpers/factories.js';
import { ensureDashboardBuilt } from './helpers/browser.js';
import { CURRENT_PARAMS, hashPassword, passwordKdfRuns, usePasswordParams } from '../src/accounts/password.js';
import { RateLimits } from '../src/http/rateLimiter.js';
import { freePort } from './helpers/postgres.js';
import { encryptJson } from '../src/settings/crypto.js';
import { playCredentialsAad } from '../src/play/credentials.js';
import { worstHealthDuring } from './helpers/healthProbe.js';

type Err = { message: string; code: string; retryAfter?: number };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const login = (server: TestServer, email: string, password: string, from?: string) =>
  api(server).post<Err>('/auth/login', { email, password }, undefined, from ? { headers: { 'x-forwarded-for': from } } : {});

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('hostile clients: rate limits and authentication', function () {
  this.timeout(180_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  describe('item 1: rate-limit keys are never chosen by the client', () => {
    it('flood_30000DistinctMadeUpBearers_limiterKeysAndHeapStayBounded', async () => {
      const pool = new Pool(server.url, { connections: 48, pipelining: 1 });
      const total = 30_000;
      const statuses = new Map<number, number>();
      // Distinct 6 KB made-up credentials, cheap to make: one random block and a counter.
      const block = randomBytes(4600).toString('base64');
      const before = heapAfterGc();
      const started = performance.now();
      try {
        const { worstMs } = await worstHealthDuring(server.url, async () => {
          let next = 0;
          const worker = async () => {
            while (next < total) {
              next++;
              // A limiter keyed by the credential holds ~6 KB per request for its whole window.
              const res = await pool.request({ path: '/api/plans', method: 'GET', headers: { authorization: `Bearer ${block}${next}` } });
              await res.body.dump();
              statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            }
          };
          await Promise.all(Array.from({ length: 48 }, worker));
        });
        const growthMb = (heapAfterGc() - before) / 1024 / 1024;
        const rows = await server.ctx.rateLimits.storedKeyCount();
        // One client address: a handful of keys, whatever the tokens.
        expect(rows, 'rate_limits rows').to.be.at.most(5);
        console.log(`      (heap growth ${growthMb.toFixed(1)} MB, worst /api/health ${worstMs.toFixed(0)} ms, answers 401×${statuses.get(401) ?? 0} 429×${statuses.get(429) ?? 0})`);
        expect(growthMb, 'heap growth (MB)').to.be.below(25);
        // Generous: the attacking client shares this process's event loop with the server.
        expect(worstMs, 'worst /api/health answer (ms) during the flood').to.be.below(2000);
        const limited = statuses.get(429) ?? 0;
        const refused = statuses.get(401) ?? 0;
        expect(limited + refused).to.equal(total);
        // Bad credentials are limited per address: 120 a minute are looked at, the rest get 429
        // from memory (a slow machine may see the window turn once or twice).
        const windows = Math.floor((performance.now() - started) / 60_000) + 1;
        expect(refused).to.be.at.most(server.ctx.auth.limiters.badCredentialsPerAddress.options.points * windows + 2);
      } finally {
        await pool.close();
      }
    });

    it('postgresUnreachable_limitsStillHoldInCappedMemory', async () => {
      // A real pool pointed at a port nobody listens on: every query fails at once.
      const port = await freePort();
      const limits = new RateLimits(`postgres://aabify:x@127.0.0.1:${port}/nada`, pino({ level: 'silent' }), { insuranceMaxKeys: 100 });
      try {
        const limiter = limits.limiter('fallback', { points: 2, windowMs: 60_000 });
        const states = [];
        for (let i = 0; i < 3; i++) states.push((await limiter.consume('ip:203.0.113.1')).limited);
        expect(states).to.deep.equal([false, false, true]);
        for (let i = 0; i < 1000; i++) await limiter.consume(`ip:198.51.100.${i}`);
        expect(limiter.insuranceKeyCount()).to.equal(100);
      } finally {
        await limits.close();
      }
    });

    it('verifiedUser_isTheKey_notTheTokenPresented', async () => {
      const user = await buildUser(server);
      // Two sessions of one user share the user's count: minting new tokens gains nothing.
      const limiter = server.ctx.rateLimits.limiter('plans', { points: 300, windowMs: 60_000 });
      await limiter.consume(`user:${user.id}`, 300);
      const res = await api(server).get<Err>('/plans/current', tokenFor(server, user));
      expect(res.status).to.equal(429);
      expect(res.body).to.include({ code: 'RATE_LIMIT', message: ACCOUNT_MESSAGES.tooManyRequests });
      expect(res.headers.get('retry-after')).to.equal(String(res.body.retryAfter));
      // Another user from the same address is not affected.
      expect((await api(server).get('/plans/current', tokenFor(server, await buildUser(server)))).status).to.equal(200);
    });
  });

  describe('item 3: password guesses are counted before the check', () => {
    it('login_40SimultaneousWrongPasswords_atMostFiveChecked', async () => {
      const user = await buildUser(server);
      const runsBefore = passwordKdfRuns();
      const statuses = (await Promise.all(Array.from({ length: 40 }, (_, i) => login(server, user.email, `errada-${i}`)))).map((r) => r.status);
      const checked = passwordKdfRuns() - runsBefore;
      expect(count(statuses, 401), 'answers 401 (passwords checked)').to.equal(5);
      expect(count(statuses, 429), 'answers 429 (refused before the check)').to.equal(35);
      expect(checked, 'scrypt runs').to.equal(5);
    });

    it('login_strangersFailuresFromOneAddress_ownerFromAnotherStillSignsIn', async () => {
      const owner = await buildUser(server);
      const stranger: number[] = [];
      for (let i = 0; i < 10; i++) stranger.push((await login(server, owner.email, `chute-${i}`, '203.0.113.7')).status);
      expect(stranger).to.deep.equal([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
      const res = await login(server, owner.email, DEFAULT_PASSWORD, '198.51.100.23');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });

    it('login_guessesFromManyAddresses_slowTheAccountButNeverLockTheOwner', async () => {
      const owner = await buildUser(server);
      const free = server.ctx.auth.limiters.loginPerAccount.options.points;
      for (let i = 0; i < free; i++) expect((await login(server, owner.email, 'errada!!', `203.0.113.${i + 1}`)).status).to.equal(401);
      // Past the free failures, one attempt per wait is checked, however many arrive at once.
      const burst = (await Promise.all(Array.from({ length: 10 }, (_, i) => login(server, owner.email, 'errada!!', `198.51.100.${i + 1}`)))).map((r) => r.status);
      expect(count(burst, 401)).to.equal(1);
      expect(count(burst, 429)).to.equal(9);
      // The owner waits at most a short, growing delay, then gets in.
      let res = await login(server, owner.email, DEFAULT_PASSWORD, '192.0.2.50');
      for (let tries = 0; res.status === 429 && tries < 3; tries++) {
        expect(res.body.retryAfter).to.be.within(1, 60);
        await new Promise((resolve) => setTimeout(resolve, res.body.retryAfter! * 1000 + 100));
        res = await login(server, owner.email, DEFAULT_PASSWORD, '192.0.2.50');
      }
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });
  });

  describe('item 9: TRUST_PROXY decides whose X-Forwarded-For counts', () => {
    // Sign-ins per address limited to 3, over distinct emails: only the address is the key.
    const perAddressOfThree = { authLimits: { loginPerAddress: { points: 3, windowMs: 60_000 } } };
    const signInsFrom = async (target: TestServer, addresses: string[]) => {
      const statuses: number[] = [];
      for (const [i, from] of addresses.entries()) statuses.push((await login(target, `ninguem-${i}@example.com`, 'errada!!', from)).status);
      return statuses;
    };

    it('trustProxy_loopbackProxyTrusted_forwardedForIsTheClient', async () => {
      const trusting = await startTestServer({}, perAddressOfThree);
      try {
        const a = '203.0.113.9';
        expect(await signInsFrom(trusting, [a, a, a, a, '203.0.113.10'])).to.deep.equal([401, 401, 401, 429, 401]);
      } finally {
        await trusting.stop();
      }
    });

    it('trustProxy_false_forwardedForIgnored_andTheLogSaysSoOnce', async () => {
      const lines: Array<{ msg?: string; proxy?: string }> = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg?: string }) });
      const untrusting = await startTestServer({ TRUST_PROXY: 'false' }, { ...perAddressOfThree, logger });
      try {
        // Every forwarded address is the same client (the socket's, 127.0.0.1).
        expect(await signInsFrom(untrusting, ['203.0.113.9', '203.0.113.10', '203.0.113.11', '203.0.113.12'])).to.deep.equal([401, 401, 401, 429]);
        const warnings = lines.filter((l) => l.msg?.startsWith('X-Forwarded-For from a proxy TRUST_PROXY does not trust'));
        expect(warnings).to.have.length(1);
        expect(warnings[0].proxy).to.equal('127.0.0.1');
      } finally {
        await untrusting.stop();
      }
    });
  });

  describe('item 10: smaller holes', () => {
    it('deleteUser_removesKeystorePlayKeyAndApiTokens_tokenNoLongerAuthenticates', async () => {
      const admin = await buildAdmin(server);
      const user = await buildUser(server, { emailVerifiedAt: new Date() });
      const session = tokenFor(server, user);
      const created = await api(server).post<{ token: string }>('/auth/tokens', { name: 'ci' }, session);
      expect(created.status).to.equal(201);
      const apiToken = created.body.token;
      const ks = generateUploadKeystore({ alias: 'upload', dname: 'CN=Loja, C=BR', password: 'senha-ks-1' });
      const put = await api(server).put('/account/keystore', { keystore: ks.keystore.toString('base64'), storePassword: 'senha-ks-1', fileName: 'upload.p12' }, session);
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect((await api(server).get('/auth/me', apiToken)).status).to.equal(200);
      await server.ctx.models.PlayCredential.create({
        userId: user.id,
        secret: encryptJson({ client_email: 'loja@projeto.iam.gserviceaccount.com' }, server.ctx.secrets.encryptionKey, playCredentialsAad(user.id)),
        clientEmail: 'loja@projeto.iam.gserviceaccount.com',
        projectId: 'projeto',
        privateKeyId: 'chave',
      });

      expect((await api(server).delete(`/admin/users/${user.id}`, tokenFor(server, admin))).status).to.equal(200);
      expect((await api(server).get('/auth/me', apiToken)).status).to.equal(401);
      expect(await server.ctx.models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);
      expect(await server.ctx.models.UserKeystore.count({ where: { userId: user.id } })).to.equal(0);
      expect(await server.ctx.models.PlayCredential.count({ where: { userId: user.id } })).to.equal(0);
    });

    it('queries_hugePageNumbersPricesOrdersAndCredits_400NotA500', async () => {
      const admin = await buildAdmin(server);
      const user = await buildUser(server);
      const asUser = tokenFor(server, user);
      const asAdmin = tokenFor(server, admin);
      // Numbers yup accepts as integers but Postgres cannot take as an offset, a price or an int.
      const attempts: Array<[string, string, unknown, string]> = [
        ['GET', '/payments/purchases?page=1e21', undefined, asUser],
        ['GET', '/plans/usage-history?page=99999999999', undefined, asUser],
        ['GET', '/plans?minPrice=1e308', undefined, asUser],
        ['GET', '/admin/users?page=1e21', undefined, asAdmin],
        ['GET', '/admin/plans?maxPrice=1e300', undefined, asAdmin],
        ['POST', '/admin/plans', { name: 'Ordem enorme', type: 'credit', price: 10, credits: 1, displayOrder: 1e12 }, asAdmin],
      ];
      for (const [method, path, body, token] of attempts) {
        const res = await api(server).request<Err>(method, path, body, { token });
        expect(res.status, `${method} ${path}`).to.equal(400);
        expect(res.body.code, `${method} ${path}`).to.equal('VALIDATION_ERROR');
      }
      // Adding credits again and again never overflows the balance.
      await api(server).request('PATCH', `/admin/users/${user.id}/credits`, { credits: 1_000_000, operation: 'set' }, { token: asAdmin });
      const over = await api(server).request<Err>('PATCH', `/admin/users/${user.id}/credits`, { credits: 1_000_000, operation: 'add' }, { token: asAdmin });
      expect(over.status).to.equal(400);
      expect(over.body.message).to.equal('Créditos devem ser no máximo 1.000.000');
      expect((await user.reload()).credits).to.equal(1_000_000);
    });

    it('register_takenEmailWhereConfirmationIsRequired_sameAnswerAsANewAddressAfterTheSameHash', async () => {
      // Without a session at sign-up (the operator requires a confirmed e-mail) nothing may tell
      // a stranger the account exists, not even the time the answer takes.
      await server.ctx.settings.set('accounts.requireVerifiedEmail', true);
      try {
        const existing = await buildUser(server);
        let runs = passwordKdfRuns();
        const freshEmail = `novo-${randomBytes(3).toString('hex')}@example.com`;
        const fresh = await api(server).post<JsonBody>('/auth/register', { acceptTerms: true, email: freshEmail, password: 'segredo1' });
        expect(fresh.status).to.equal(201);
        const freshRuns = passwordKdfRuns() - runs;
        runs = passwordKdfRuns();
        const taken = await api(server).post<JsonBody>('/auth/register', { acceptTerms: true, email: existing.email.toUpperCase(), password: 'segredo1' });
        expect(passwordKdfRuns() - runs, 'password hashes for a taken email').to.equal(freshRuns);
        // Status and body differ only by the address echoed back: nothing tells a stranger the account exists.
        expect(taken.status).to.equal(fresh.status);
        expect({ ...taken.body, email: undefined }).to.deep.equal({ ...fresh.body, email: undefined });
        expect(JSON.stringify(taken.body)).not.to.match(/cadastrado|existe/i);
      } finally {
        await server.ctx.settings.unset('accounts.requireVerifiedEmail');
      }
    });

    for (const [what, path] of [
      ['api', '/api/health'],
      ['dashboard', '/login'],
    ] as const) {
      it(`securityHeaders_${what}Answer_cspFramesNosniffReferrer`, async () => {
        const res = await fetch(server.url + path);
        expect(res.status).to.equal(200);
        const csp = res.headers.get('content-security-policy') ?? '';
        const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
        expect(directives.get('script-src')).to.deep.equal(["'self'"]);
        expect(directives.get('default-src')).to.deep.equal(["'self'"]);
        expect(directives.get('frame-ancestors')).to.deep.equal(["'none'"]);
        expect(directives.get('object-src')).to.deep.equal(["'none'"]);
        expect(directives.get('style-src')).to.deep.equal(["'self'"]);
        // Inline only for style attributes (e-mail previews); never for scripts or <style> elements.
        expect(csp.replace(/style-src-attr 'unsafe-inline'/, '')).not.to.contain('unsafe-inline');
        expect(csp).not.to.contain('unsafe-eval');
        expect(res.headers.get('x-frame-options')).to.equal('DENY');
        expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
        expect(res.headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
        if (what === 'dashboard') {
          const html = await res.text();
          // Every script is a file the CSP's 'self' allows; none inline.
          expect(html.match(/<script\b[^>]*>/g)?.every((tag) => /\bsrc=/.test(tag))).to.equal(true);
        }
      });
    }
  });

  describe('item 10: scrypt at the current cost', () => {
    let production: TestServer;
    before(async () => {
      production = await startTestServer({}, { passwordParams: CURRENT_PARAMS });
    });
    after(async () => {
      await production?.stop();
      usePasswordParams(TEST_PASSWORD_PARAMS);
    });

    it('login_hashOfTheOldCost_upgradedToOwaspCostOnSignIn', async () => {
      expect(CURRENT_PARAMS).to.deep.equal({ ln: 16, r: 8, p: 2 });
      // The first accounts' cost (ln=15), and OWASP's other setting the server hashed with before (ln=17, p=1).
      for (const old of [
        { ln: 15, r: 8, p: 1 },
        { ln: 17, r: 8, p: 1 },
      ]) {
        const user = await buildUser(production, { email: `antigo-${randomBytes(3).toString('hex')}@example.com` });
        await user.update({ passwordHash: await hashPassword(DEFAULT_PASSWORD, old) });
        expect((await login(production, user.email, `${DEFAULT_PASSWORD}x`)).status, `wrong password, ln=${old.ln}`).to.equal(401);
        const res = await login(production, user.email, DEFAULT_PASSWORD);
        expect(res.status, `ln=${old.ln}`).to.equal(200);
        await user.reload();
        expect(user.passwordHash).to.match(/^scrypt\$ln=16,r=8,p=2\$/);
        expect((await login(production, user.email, DEFAULT_PASSWORD)).status).to.equal(200);
      }
    });
  });
});
