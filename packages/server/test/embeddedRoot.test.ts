import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './helpers/postgres.js';

const mainTs = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('embedded Postgres started as root', function () {
  this.timeout(60000);
  let outer: string | undefined;
  after(async () => {
    if (outer) await rm(outer, { recursive: true, force: true });
  });

  it('dataDirUnderADirectoryPostgresCannotEnter_stopsBeforeInitdbWithOneLine', async function () {
    if (process.getuid?.() !== 0) {
      const reason = 'só faz sentido executado como root (o Postgres embutido roda como o usuário postgres)';
      if (process.env.CI === 'true') throw new Error(reason);
      console.log(`    (pulado: ${reason})`);
      this.skip();
    }
    outer = await mkdtemp(join(tmpdir(), 'aabify-root-')); // mode 700, owned by root, like mktemp -d
    const dataDir = join(outer, 'data');
    const run = spawnSync(process.execPath, ['--import', 'tsx', mainTs], {
      env: { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), PORT: '0', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 50000,
    });
    expect(run.status).to.equal(1);
    const lines = run.stderr.trim().split('\n').filter((l) => l && !l.includes('npm warn'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain(`O usuário postgres não consegue entrar em ${outer}`).and.contain('DATA_DIR');
  });
});
