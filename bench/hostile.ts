/**
 * Hostile-client benchmark (issue 14): the attacks of the issue against a real server running
 * as its own OS process (embedded test Postgres), so its RSS is the server's alone. Prints,
 * per attack, the server's RSS growth, the worst /api/health answer time during the attack and
 * what the server did with the attempts.
 *
 *   npx tsx bench/hostile.ts                     # every attack
 *   npx tsx bench/hostile.ts --attack tokens     # 30,000 distinct made-up bearer tokens, 48 connections
 *   npx tsx bench/hostile.ts --attack passwords  # 40 simultaneous wrong passwords for one account
 *   npx tsx bench/hostile.ts --attack keystores  # four 1M-iteration legacy PKCS#12 keystores at once
 *
 * Options: --requests N (tokens, default 30000), --connections N (default 48),
 * --guesses N (passwords, default 40), --uploads N and --iterations N (keystores, default 4 and
1,000,000). Each attack is one function in ATTACKS below; add new
 * ones there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Pool, request } from 'undici';
import { worstHealthDuring } from '../packages/server/test/helpers/healthProbe.js';

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

// ---------------------------------------------------------------- the server, in a child

/** Child mode: start the server with production settings and tell the parent where it is. */
async function serve(): Promise<void> {
  const { startTestCluster } = await import('../packages/server/test/helpers/postgres.js');
  const { startTestServer } = await import('../packages/server/test/helpers/server.js');
  const { buildAdmin, tokenFor } = await import('../packages/server/test/helpers/factories.js');
  const { CURRENT_PARAMS } = await import('../packages/server/src/accounts/password.js');
  await startTestCluster();
  // Production's password cost: the password attack is about how many checks run.
  const server = await startTestServer({}, { passwordParams: CURRENT_PARAMS });
  const admin = await buildAdmin(server);
  process.send!({ url: server.url, adminToken: tokenFor(server, admin) });
  process.on('message', (m) => {
    if (m === 'stop') void server.stop().then(() => process.exit(0));
  });
}

async function startServerProcess(): Promise<{ child: ChildProcess; target: Target }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ url: string; adminToken: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; adminToken: string }));
    child.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
  return { child, target: { ...ready, pid: child.pid! } };
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
      `server RSS ${rssBefore.toFixed(0)} → peak ${peakRss.toFixed(0)} → ${rssAfter.toFixed(0)} MB (growth ${(rssAfter - rssBefore).toFixed(0)} MB); ` +
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
  const newToken = async (): Promise<string> => {
    const email = `ks-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'senha-do-ataque-1';
    const created = await fetch(`${target.url}/api/admin/users/create-user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, userType: 'credit', credits: 0 }),
    });
    if (created.status !== 201) throw new Error(`user not created: ${created.status} ${await created.text()}`);
    const login = await fetch(`${target.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    return ((await login.json()) as { token: string }).token;
  };
  const rssBefore = await rssMb(target.pid);
  const r = await keystoreAttack({ url: target.url, newToken }, { uploads: Number(arg('uploads', '4')), iterations: Number(arg('iterations', '1000000')) });
  const rssAfter = await rssMb(target.pid);
  console.log(
    `keystores: ${r.answers.length} uploads of a ${r.keystore}, ${r.seconds} s — answers ${r.answers.join(', ')}; ` +
      `server RSS growth ${(rssAfter - rssBefore).toFixed(0)} MB; worst /api/health ${r.worstHealthMs} ms (${r.healthChecks} answers, ${r.healthFailures} failures)`,
  );
}

const ATTACKS: Record<string, (target: Target) => Promise<void>> = {
  tokens: attackDistinctTokens,
  passwords: attackParallelPasswords,
  keystores: attackKeystores,
};

// ---------------------------------------------------------------- main

if (process.argv.includes('--serve')) {
  await serve();
} else {
  const which = arg('attack', 'all');
  const names = which === 'all' ? Object.keys(ATTACKS) : which.split(',');
  for (const name of names) if (!ATTACKS[name]) throw new Error(`unknown attack "${name}" (one of: ${Object.keys(ATTACKS).join(', ')}, all)`);
  for (const name of names) {
    // A fresh server per attack: one attack's limits and memory do not colour the next.
    const { child, target } = await startServerProcess();
    try {
      await ATTACKS[name]!(target);
    } finally {
      child.send('stop');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}
