import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './helpers/postgres.js';

const startScript = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [startScript], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitForOutput(s: Started, text: string, ms = 120000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!s.output().includes(text)) {
    if (s.child.exitCode !== null) throw new Error(`server exited: ${s.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}": ${s.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start with embedded defaults', function () {
  this.timeout(240000);
  let dataDir: string;
  let env: Record<string, string>;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'aabify-life-'));
    env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()) };
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function dbClient(): Promise<pg.Client> {
    const secrets = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as { databasePassword: string };
    const client = new pg.Client({ host: '127.0.0.1', port: Number(env.EMBEDDED_PG_PORT), user: 'aabify', password: secrets.databasePassword, database: 'aabify' });
    await client.connect();
    return client;
  }

  it('start_stop_start_keepsDataAndRefusesASecondInstance', async () => {
    const first = start(env);
    await waitForOutput(first, 'aabify pronto: abra http://localhost:');
    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
    expect(health.status).to.equal(200);
    const page = await fetch(`http://127.0.0.1:${env.PORT}/`);
    expect(await page.text()).to.contain('<div id="root">');

    const client = await dbClient();
    await client.query(`INSERT INTO settings (key, value, "createdAt", "updatedAt") VALUES ('test.marker', '"kept"', now(), now())`);
    await client.end();

    // A second server on the same data directory is refused clearly and touches nothing.
    const second = start({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).to.equal(1);
    expect(second.output()).to.match(/Já existe um servidor aabify em execução com o diretório de dados .* \(processo \d+\)/);
    expect((await fetch(`http://127.0.0.1:${env.PORT}/api/health`)).status).to.equal(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);
    expect(existsSync(join(dataDir, 'aabify.pid'))).to.equal(false);

    const again = start(env);
    await waitForOutput(again, 'aabify pronto');
    const client2 = await dbClient();
    const rows = await client2.query(`SELECT value FROM settings WHERE key = 'test.marker'`);
    await client2.end();
    expect(rows.rows[0]?.value).to.equal('kept');
    again.child.kill('SIGINT');
    expect(await again.exited).to.equal(0);
  });
});
