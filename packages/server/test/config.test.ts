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

  const SECRETS = { JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'ab'.repeat(32) };
  for (const [label, env, variable] of [
    ['databaseUrlWithoutJwtSecret', { DATABASE_URL: 'postgres://h/db', ENCRYPTION_KEY: SECRETS.ENCRYPTION_KEY }, 'JWT_SECRET'],
    ['databaseUrlWithoutEncryptionKey', { DATABASE_URL: 'postgres://h/db', JWT_SECRET: SECRETS.JWT_SECRET }, 'ENCRYPTION_KEY'],
    ['workerRoleWithoutSecrets', { ROLE: 'worker' }, 'JWT_SECRET'],
    ['shortEncryptionKey', { ...SECRETS, ENCRYPTION_KEY: 'abcd' }, 'ENCRYPTION_KEY'],
    ['shortPreviousKey', { ...SECRETS, ENCRYPTION_KEY_PREVIOUS: Buffer.alloc(16).toString('base64') }, 'ENCRYPTION_KEY_PREVIOUS'],
  ] as const) {
    it(`loadConfig_${label}_namesIt`, () => {
      expect(() => loadConfig(env)).to.throw(ConfigError, variable);
    });
  }

  it('loadConfig_sharedSecrets_hexAndBase64KeysAreTheSame32Bytes', () => {
    const hex = 'ab'.repeat(32);
    const a = loadConfig({ DATABASE_URL: 'postgres://h/db', JWT_SECRET: SECRETS.JWT_SECRET, ENCRYPTION_KEY: hex });
    const b = loadConfig({ ROLE: 'web', JWT_SECRET: SECRETS.JWT_SECRET, ENCRYPTION_KEY: Buffer.from(hex, 'hex').toString('base64') });
    expect(a.encryptionKey).to.equal(b.encryptionKey);
    expect(Buffer.from(a.encryptionKey!, 'base64')).to.have.length(32);
    expect(loadConfig({}).encryptionKey).to.equal(undefined); // the embedded default generates its own
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
