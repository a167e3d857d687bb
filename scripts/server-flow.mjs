// One whole customer flow against the built server, on the Node that runs this script: the
// server's bundle (packages/server/dist, `npm run build` first) is started with that same Node on
// its embedded defaults (a real embedded Postgres in a fresh DATA_DIR, local storage, the payment
// sandbox), then over real HTTP: first admin → a credit plan → a customer registers, signs in and fills billing details
// → buys the plan with a sandbox PIX → converts a small corpus APK → downloads the AAB. CI runs it
// on every Node line users deploy on (scripts/test.mjs --node). Prints one line per step; exit
// code 1 on any failure. Counted as one test in $AABIFY_TEST_SUMMARY when scripts/test.mjs runs it.
//
//   node scripts/server-flow.mjs                  # the Node on PATH
//   .cache/node/24.21.0/bin/node scripts/server-flow.mjs
//
// AABIFY_CORPUS names the corpus folder (default: ../shared/corpus beside the repository).
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_MAIN = join(repo, 'packages', 'server', 'dist', 'main.js');
const CORPUS = process.env.AABIFY_CORPUS ?? join(repo, '..', 'shared', 'corpus');
const APK = join(CORPUS, 'jx-small.apk');
const READY_TIMEOUT_MS = 180_000;
const CONVERSION_TIMEOUT_MS = 180_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The server as a child process on this Node; resolves once it says it is ready. */
async function startServer() {
  const dataDir = await mkdtemp(join(tmpdir(), 'aabify-flow-'));
  // As root the embedded Postgres runs as `postgres`, which must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [SERVER_MAIN], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const onData = (chunk) => {
      output += chunk.toString('utf8');
      if (output.includes('aabify pronto')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready`));
    });
  }).catch(async (e) => {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`server: ${e.message}\n${output}`);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One API call; the parsed JSON, or a thrown Error naming the call, the status and the answer. */
async function call(base, method, path, { token, json, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form !== undefined) body = form;
  const res = await fetch(`${base}/api${path}`, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

function expectThat(condition, what) {
  if (!condition) throw new Error(what);
}

async function flow(base) {
  const steps = [];
  const step = async (name, fn) => {
    const started = Date.now();
    const result = await fn();
    steps.push(name);
    console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
    return result;
  };

  const admin = await step('first administrator (POST /setup/initialize)', () =>
    call(base, 'POST', '/setup/initialize', { json: { name: 'Admin', email: 'admin@flow.test', password: 'senha-do-admin' } }),
  );
  const plan = await step('credit plan (POST /plans)', () =>
    call(base, 'POST', '/plans', { token: admin.token, json: { name: 'Pacote 5', type: 'credit', price: 19.9, credits: 5 } }),
  );
  const planId = plan.id ?? plan.plan?.id;
  expectThat(typeof planId === 'string', `plan id missing in ${JSON.stringify(plan)}`);

  const email = 'cliente@flow.test';
  const password = 'senha-do-cliente';
  const registered = await step('customer registers (POST /auth/register)', () => call(base, 'POST', '/auth/register', { json: { email, password, acceptTerms: true } }));
  expectThat(typeof registered.token === 'string' && registered.user?.email === email, `sign-up answered no session: ${JSON.stringify(registered)}`);
  const session = await step('customer signs in (POST /auth/login)', () => call(base, 'POST', '/auth/login', { json: { email, password } }));
  const token = session.token;
  // A purchase needs billing details (they go on the receipt and the NFS-e): a valid CPF and an address.
  await step('billing details (PUT /account/billing)', () =>
    call(base, 'PUT', '/account/billing', {
      token,
      json: { document: '529.982.247-25', name: 'Cliente do Fluxo', email, cep: '01310-100', street: 'Avenida Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', cityCode: '3550308', state: 'SP' },
    }),
  );

  const pix = await step('PIX charge (POST /payments/create-pix)', () => call(base, 'POST', `/payments/create-pix/${planId}`, { token }));
  expectThat(pix.payment?.status === 'pending', `new charge not pending: ${JSON.stringify(pix.payment)}`);
  await step('sandbox approval (POST /payments/simulate-approval)', () => call(base, 'POST', `/payments/simulate-approval/${pix.payment.id}`, { token }));
  const me = await step('plan applied (GET /auth/me)', () => call(base, 'GET', '/auth/me', { token }));
  expectThat(me.credits?.available === 5, `expected 5 free credits after the purchase, got ${JSON.stringify(me.credits)}`);

  const apk = await readFile(APK);
  const form = new FormData();
  form.append('apk', new Blob([apk], { type: 'application/vnd.android.package-archive' }), basename(APK));
  const started = await step(`upload and convert ${basename(APK)} (POST /conversion/convert)`, () => call(base, 'POST', '/conversion/convert', { token, form }));
  const id = started.conversionId;

  const done = await step('conversion completes (GET /conversion/status)', async () => {
    const deadline = Date.now() + CONVERSION_TIMEOUT_MS;
    for (;;) {
      const status = await call(base, 'GET', `/conversion/status/${id}`, { token });
      const conversion = status.conversion ?? status;
      if (conversion.status === 'completed') return conversion;
      expectThat(conversion.status !== 'failed' && conversion.status !== 'cancelled', `conversion ${conversion.status}: ${JSON.stringify(conversion.error ?? conversion)}`);
      expectThat(Date.now() < deadline, `conversion still ${conversion.status} after ${CONVERSION_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  expectThat(done.canDownload === true, 'completed conversion is not downloadable');

  const link = await step('download token (POST /download/generate-download-token)', () => call(base, 'POST', `/download/generate-download-token/${id}`, { token }));
  const aab = await step('AAB downloaded (GET /download/file)', async () => {
    const res = await fetch(`${base}/api/download/file/${link.downloadToken}`, { headers: { authorization: `Bearer ${token}` } });
    expectThat(res.ok, `download answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  });
  expectThat(aab.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')), 'the download is not a zip');
  expectThat(aab.includes('BundleConfig.pb') && aab.includes('base/manifest/AndroidManifest.xml'), 'the zip is not an App Bundle');
  if (typeof done.convertedSize === 'number') expectThat(aab.length === done.convertedSize, `downloaded ${aab.length} bytes, the conversion says ${done.convertedSize}`);
  return steps.length;
}

/** The flow's result where scripts/test.mjs adds up the suites (the mocha reporter's format). */
function report(ok) {
  const file = process.env.AABIFY_TEST_SUMMARY;
  if (file) appendFileSync(file, JSON.stringify({ cwd: repo, passes: ok ? 1 : 0, failures: ok ? 0 : 1, pending: 0 }) + '\n');
}

function failWith(message) {
  console.log(`  ✖ ${message}`);
  report(false);
  process.exit(1);
}

console.log(`server flow on Node ${process.version}`);
if (!existsSync(SERVER_MAIN)) failWith(`${SERVER_MAIN} is missing: run npm run build first`);
if (!existsSync(APK)) failWith(`${APK} is missing (set AABIFY_CORPUS)`);
let server;
let steps = 0;
let failure;
try {
  server = await startServer();
  steps = await flow(server.url);
} catch (e) {
  failure = e;
} finally {
  await server?.stop();
}
if (failure) {
  if (server) console.log(`  server output:\n${server.output().replace(/^/gm, '    ')}`);
  failWith(failure instanceof Error ? failure.message : String(failure));
}
report(true);
console.log(`server flow: ${steps} steps passed`);
