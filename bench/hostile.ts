/**
 * Hostile-client benchmark: the attacks of docs/security.md against the built server running
 * as its own OS process as deployed (embedded Postgres of the bench's own), so its RSS is the server's alone. Prints,
 * per attack, the server's RSS growth, the worst /api/health answer time during the attack and
 * what the server did with the attempts.
 *
 *   npx tsx bench/hostile.ts                     # every attack
 *   npx tsx bench/hostile.ts --attack tokens     # 30,000 distinct made-up bearer tokens, 48 connections
 *   npx tsx bench/hostile.ts --attack passwords  # 40 simultaneous wrong passwords for one account
 *   npx tsx bench/hostile.ts --attack keystores  # four 1M-iteration legacy PKCS#12 keystores at once
 *   npx tsx bench/hostile.ts --attack slow       # slowloris headers on 200 connections, then a dripping upload body
 *   npx tsx bench/hostile.ts --attack sockets    # 300 sockets of 15 accounts from one address, each emitting 30 events
 *
 * Options: --requests N (tokens, default 30000), --connections N (default 48),
 * --guesses N (passwords, default 40), --uploads N and --iterations N (keystores, default 4 and
1,000,000). Each attack is one function in ATTACKS below; add new
 * ones there.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { LegalAcceptanceStatus } from '@aabify/shared';
import { worstHealthDuring } from '../packages/server/test/helpers/healthProbe.js';
import { dripRequest } from '../packages/server/test/helpers/slowClient.js';
import { freePort } from '../packages/server/test/helpers/postgres.js';
import { startEmbeddedPostgres } from '../packages/server/src/db/embedded.js';
import { benchServerEnv, callApi, freshDatabase, startServerProcess, stopServerProcesses } from './serverProcess.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** What an attack gets: the server's URL and process, and a signed-in admin to set things up. */
interface Target {
  url: string;
  pid: number;
  adminToken: string;
}

// ---------------------------------------------------------------- the server

/**
 * The server as deployed: the built bundle in a process of its own with the image's Node flags and
 * glibc settings (bench/serverProcess.ts), on a fresh database of the bench's embedded Postgres,
 * its first administrator made by the first-run setup.
 */
async function startTarget(cluster: { url: string }, work: string): Promise<{ child: ChildProcess; target: Target }> {
  const databaseUrl = await freshDatabase(cluster.url);
  const dir = await mkdtemp(join(work, 'server-'));
  const server = await startServerProcess({ ...benchServerEnv(databaseUrl, dir), PORT: String(await freePort()), DATA_DIR: dir });
  const { token } = await callApi<{ token: string }>(server.url, 'POST', '/setup/initialize', undefined, { email: 'bench@example.com', password: 'senha-do-bench-1', name: 'Bench' });
  return { child: server.child, target: { url: server.url, pid: server.child.pid!, adminToken: token } };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
}

// ---------------------------------------------------------------- the attacks

/** The token flood's goal for the server's RSS growth, and the growth before the work on it (30,000 requests). */
const TOKEN_FLOOD_GOAL_MB = 50;
const TOKEN_FLOOD_BEFORE_MB = 143;

/** Item 1: distinct made-up bearer tokens, each a new key to a limiter keyed by the raw token. */
async function attackDistinctTokens(target: Target): Promise<void> {
  const total = Number(arg('requests', '30000'));
  const connections = Number(arg('connections', '48'));
  const pool = new Pool(target.url, { connections, pipelining: 1 });
  const rssBefore = await rssMb(target.pid);
  const statuses: number[] = [];
  let peakRss = rssBefore;
  const sampler = setInterval(() => void rssMb(target.pid).then((mb) => (peakRss = Math.max(peakRss, mb))), 200);
  const started = performance.now();
  const { worstMs } = await worstHealthDuring(target.url, async () => {
    let next = 0;
    const worker = async () => {
      while (next < total) {
        next++;
        const res = await pool.request({ path: '/api/plans', method: 'GET', headers: { authorization: `Bearer ${randomBytes(48).toString('base64url')}` } });
        await res.body.dump();
        statuses.push(res.statusCode);
      }
    };
    await Promise.all(Array.from({ length: connections * 2 }, worker));
  });
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rssAfter = await rssMb(target.pid);
  console.log(
    `tokens:    ${total} requests, ${connections} connections, ${seconds.toFixed(1)} s — answers ${tally(statuses)}; ` +
      `server RSS ${rssBefore.toFixed(0)} → peak ${peakRss.toFixed(0)} → ${rssAfter.toFixed(0)} MB (growth ${(rssAfter - rssBefore).toFixed(0)} MB: ` +
      `${((rssAfter - rssBefore) / TOKEN_FLOOD_GOAL_MB).toFixed(2)}× the < ${TOKEN_FLOOD_GOAL_MB} MB goal, ${rssAfter - rssBefore < TOKEN_FLOOD_GOAL_MB ? 'met' : 'NOT met'}; ${TOKEN_FLOOD_BEFORE_MB} MB before); ` +
      `worst /api/health ${worstMs.toFixed(0)} ms`,
  );
}

/** Item 3: simultaneous wrong passwords for one account; 401 = a password was checked. */
async function attackParallelPasswords(target: Target): Promise<void> {
  const guesses = Number(arg('guesses', '40'));
  const email = `alvo-${randomBytes(3).toString('hex')}@example.com`;
  const created = await fetch(`${target.url}/api/admin/users/create-user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'senha-certa-1', userType: 'credit', credits: 0 }),
  });
  if (created.status !== 201) throw new Error(`user not created: ${created.status} ${await created.text()}`);
  const rssBefore = await rssMb(target.pid);
  const started = performance.now();
  const { result: statuses, worstMs } = await worstHealthDuring(target.url, () =>
    Promise.all(
      Array.from({ length: guesses }, async (_, i) => {
        const res = await request(`${target.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: `errada-${i}` }),
        });
        await res.body.dump();
        return res.statusCode;
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const rssAfter = await rssMb(target.pid);
  const checked = statuses.filter((s) => s === 401).length;
  console.log(
    `passwords: ${guesses} simultaneous wrong passwords, ${seconds.toFixed(1)} s — answers ${tally(statuses)}; ` +
      `passwords checked ${checked} (limit 5); server RSS growth ${(rssAfter - rssBefore).toFixed(0)} MB; worst /api/health ${worstMs.toFixed(0)} ms`,
  );
}

/** Four accounts upload at once a keystore whose legacy KDF runs a million iterations (bench/hostile-keystores.ts). */
async function attackKeystores(target: Target): Promise<void> {
  const { keystoreAttack } = await import('./hostile-keystores.js');
  const newToken = () => newCustomer(target);
  const rssBefore = await rssMb(target.pid);
  const r = await keystoreAttack({ url: target.url, newToken }, { uploads: Number(arg('uploads', '4')), iterations: Number(arg('iterations', '1000000')) });
  const rssAfter = await rssMb(target.pid);
  console.log(
    `keystores: ${r.answers.length} uploads of a ${r.keystore}, ${r.seconds} s — answers ${r.answers.join(', ')}; ` +
      `server RSS growth ${(rssAfter - rssBefore).toFixed(0)} MB; worst /api/health ${r.worstHealthMs} ms (${r.healthChecks} answers, ${r.healthFailures} failures)`,
  );
}

/** A new credit customer, signed in: its session token. */
async function newCustomer(target: Target, credits = 0): Promise<string> {
  const email = `c-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'senha-do-ataque-1';
  const created = await fetch(`${target.url}/api/admin/users/create-user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, userType: 'credit', credits }),
  });
  if (created.status !== 201) throw new Error(`user not created: ${created.status} ${await created.text()}`);
  const login = await fetch(`${target.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const token = ((await login.json()) as { token: string }).token;
  // An account made by an admin accepts the current terms at its first sign-in; until then every other call answers 403.
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const status = (await (await fetch(`${target.url}/api/legal/acceptance`, { headers: auth })).json()) as LegalAcceptanceStatus;
  const accepted = await fetch(`${target.url}/api/legal/acceptance`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ termsVersion: status.current.terms, privacyVersion: status.current.privacy }),
  });
  if (!accepted.ok) throw new Error(`terms not accepted: ${accepted.status} ${await accepted.text()}`);
  return token;
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? `${sorted[0]}–${sorted[sorted.length - 1]} ms (median ${sorted[Math.floor(sorted.length / 2)]})` : 'never';
};

/** Slow clients, at production limits: headers a line a second (slowloris), then an upload body at 400 B/s. */
async function attackSlowClients(target: Target): Promise<void> {
  const connections = Number(arg('slowloris', '200'));
  const head = Buffer.from('GET /api/health HTTP/1.1\r\nHost: aabify\r\n');
  // A header line a second for two minutes.
  const lines = Array.from({ length: 120 }, (_, i) => Buffer.from(`X-Lento-${i}: a\r\n`));
  const rssBefore = await rssMb(target.pid);
  const { result: exchanges, worstMs } = await worstHealthDuring(target.url, () => Promise.all(Array.from({ length: connections }, () => dripRequest(target.url, head, lines, 1000))));
  const rssAfter = await rssMb(target.pid);
  const closed = exchanges.map((e) => e.closedAfterMs).filter((ms): ms is number => ms !== undefined);
  console.log(
    `slowloris: ${connections} connections, a header line a second — ${closed.length} closed by the server (${exchanges.filter((e) => e.received.startsWith('HTTP/1.1 408')).length} with 408) after ${spread(closed)}; ` +
      `server RSS growth ${(rssAfter - rssBefore).toFixed(0)} MB; worst /api/health ${worstMs.toFixed(0)} ms`,
  );

  const token = await newCustomer(target, 1);
  const boundary = 'limite-lento';
  const upload = Buffer.from(
    `POST /api/conversion/upload HTTP/1.1\r\nHost: aabify\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000000\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="lento.apk"\r\n\r\nPK\x03\x04`,
  );
  // 100 bytes every 250 ms for five minutes.
  const drip = Array.from({ length: 1200 }, () => Buffer.alloc(100, 0x41));
  const uploads = Number(arg('uploads', '20'));
  const { result: drips, worstMs: worstDuringDrips } = await worstHealthDuring(target.url, () => Promise.all(Array.from({ length: uploads }, () => dripRequest(target.url, upload, drip, 250))));
  const cut = drips.map((e) => e.closedAfterMs).filter((ms): ms is number => ms !== undefined);
  console.log(
    `drip:      ${uploads} uploads at 400 B/s — ${cut.length} cut by the server (${drips.filter((e) => e.received.startsWith('HTTP/1.1 408')).length} with 408 REQUEST_TOO_SLOW) after ${spread(cut)}; ` +
      `worst /api/health ${worstDuringDrips.toFixed(0)} ms`,
  );
}

/** 300 sockets of 15 accounts from one address, then every connected one emits 30 events back to back. */
async function attackSocketFlood(target: Target): Promise<void> {
  const tokens = await Promise.all(Array.from({ length: 15 }, () => newCustomer(target)));
  const open = (token: string) =>
    new Promise<{ socket: Socket; code?: string }>((resolve) => {
      const socket = connectSocket(target.url, { auth: { token }, transports: ['websocket'], reconnection: false, timeout: 20_000 });
      socket.once('connect', () => resolve({ socket }));
      socket.once('connect_error', (err: Error & { data?: { code?: string } }) => resolve({ socket, code: err.data?.code ?? err.message }));
    });
  const rssBefore = await rssMb(target.pid);
  const outcomes: Array<{ socket: Socket; code?: string }> = [];
  const { worstMs: worstDuringHandshakes } = await worstHealthDuring(target.url, async () => {
    for (let wave = 0; wave < 6; wave++) outcomes.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => open(tokens[(wave * 50 + i) % tokens.length]!)))));
  });
  const live = outcomes.filter((o) => !o.code).map((o) => o.socket);
  const refused = new Map<string, number>();
  for (const o of outcomes) if (o.code) refused.set(o.code, (refused.get(o.code) ?? 0) + 1);
  const answers: boolean[] = [];
  const started = performance.now();
  const { worstMs } = await worstHealthDuring(target.url, () =>
    Promise.all(
      live.map(async (socket) => {
        for (let i = 0; i < 30; i++) {
          const a = (await socket.timeout(20_000).emitWithAck('unsubscribe-conversion', { conversionId: 'x' })) as { success: boolean };
          answers.push(a.success);
        }
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const rssAfter = await rssMb(target.pid);
  for (const o of outcomes) o.socket.close();
  console.log(
    `sockets:   300 handshakes — ${live.length} connected, refused ${[...refused].map(([c, n]) => `${c}×${n}`).join(' ') || 'none'} (worst /api/health ${worstDuringHandshakes.toFixed(0)} ms); ` +
      `${answers.length} events in ${seconds.toFixed(1)} s: ${answers.filter(Boolean).length} answered, ${answers.filter((a) => !a).length} refused; ` +
      `server RSS growth ${(rssAfter - rssBefore).toFixed(0)} MB; worst /api/health ${worstMs.toFixed(0)} ms`,
  );
}

const ATTACKS: Record<string, (target: Target) => Promise<void>> = {
  tokens: attackDistinctTokens,
  passwords: attackParallelPasswords,
  keystores: attackKeystores,
  slow: attackSlowClients,
  sockets: attackSocketFlood,
};

// ---------------------------------------------------------------- main

const which = arg('attack', 'all');
const names = which === 'all' ? Object.keys(ATTACKS) : which.split(',');
for (const name of names) if (!ATTACKS[name]) throw new Error(`unknown attack "${name}" (one of: ${Object.keys(ATTACKS).join(', ')}, all)`);
const work = await mkdtemp(join(tmpdir(), 'aabify-hostile-'));
// Run as root, the embedded Postgres runs as the postgres user, who must be able to enter it.
await chmod(work, 0o755);
const cluster = await startEmbeddedPostgres({ dir: join(work, 'pg'), port: await freePort(), password: randomBytes(12).toString('hex') });
try {
  for (const name of names) {
    // A fresh server per attack: one attack's limits and memory do not colour the next.
    const { child, target } = await startTarget(cluster, work);
    try {
      await ATTACKS[name]!(target);
    } finally {
      await stopServerProcesses([child]);
    }
  }
} finally {
  await cluster.stop();
  await rm(work, { recursive: true, force: true });
}
