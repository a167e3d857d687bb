import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.js';

const mainTs = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('config', () => {
  it('loadConfig_emptyEnvironment_usesEmbeddedDefaults', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(3000);
    expect(c.role).to.equal('all');
    expect(c.databaseUrl).to.equal(undefined);
    expect(c.storage).to.equal('local');
    expect(c.dataDir).to.match(/data$/);
  });

  for (const [name, value, fragment] of [
    ['PORT', 'abc', 'número inteiro'],
    ['PORT', '70000', 'entre 0 e 65535'],
    ['ROLE', 'boss', 'all, web, worker'],
    ['DATABASE_URL', 'mysql://x', 'postgres'],
    ['LOG_LEVEL', 'loud', 'fatal'],
    ['JWT_SECRET', 'short', '32 caracteres'],
    ['STORAGE', 's3', 'S3_BUCKET'],
    ['TRUST_PROXY', 'proxy.example', 'CIDRs'],
    ['TRUST_PROXY', '10.0.0.0/40', 'CIDRs'],
  ] as const) {
    it(`loadConfig_bad${name}_throwsNamingVariable (${value})`, () => {
      let err: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as Error).message).to.contain(name === 'STORAGE' ? 'S3_BUCKET' : name).and.contain(fragment);
    });
  }

  it('loadConfig_trustProxy_acceptsWhatExpressAccepts', () => {
    expect(loadConfig({}).trustProxy).to.equal('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).to.equal(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).to.equal(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,uniquelocal' }).trustProxy).to.equal('loopback,10.0.0.0/8,uniquelocal');
  });

  it('main_badVariable_stopsWithOneClearLine', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', mainTs], {
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(run.status).to.equal(1);
    const lines = run.stderr.trim().split('\n').filter((l) => !l.includes('npm warn'));
    expect(lines).to.deep.equal(['Configuração inválida: PORT deve ser um número inteiro (recebido "not-a-port")']);
  });
});
