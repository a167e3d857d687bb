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

  const s3Env = { STORAGE: 's3', S3_BUCKET: 'aabify-arquivos' };
  for (const [extra, variable, fragment] of [
    [{ S3_BUCKET: 'a' }, 'S3_BUCKET', 'nome de bucket válido'],
    [{ S3_BUCKET: 'com espaço' }, 'S3_BUCKET', 'nome de bucket válido'],
    [{ S3_REGION: 'Sao Paulo' }, 'S3_REGION', 'região válida'],
    [{ S3_ENDPOINT: 'ftp://minio' }, 'S3_ENDPOINT', 'http: ou https:'],
    [{ S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_SECRET_ACCESS_KEY', 'obrigatória quando S3_ACCESS_KEY_ID'],
    [{ S3_SECRET_ACCESS_KEY: 'segredo' }, 'S3_ACCESS_KEY_ID', 'obrigatória quando S3_SECRET_ACCESS_KEY'],
    [{ S3_FORCE_PATH_STYLE: 'talvez' }, 'S3_FORCE_PATH_STYLE', 'true ou false'],
    [{ S3_PRESIGNED_DOWNLOADS: 'sim' }, 'S3_PRESIGNED_DOWNLOADS', 'true ou false'],
    [{ S3_PREFIX: 'a/../b' }, 'S3_PREFIX', 'caminho simples'],
  ] as const) {
    it(`loadConfig_s3_bad${variable}_throwsNamingIt (${JSON.stringify(extra)})`, () => {
      let err: unknown;
      try {
        loadConfig({ ...s3Env, ...extra });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as ConfigError).variable).to.equal(variable);
      expect((err as Error).message).to.contain(fragment);
      expect((err as Error).message).not.to.contain('segredo');
    });
  }

  it('loadConfig_s3_defaultsAndFullSettings', () => {
    expect(loadConfig(s3Env).s3).to.deep.equal({
      bucket: 'aabify-arquivos',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      prefix: '',
      presignedDownloads: false,
    });
    const full = loadConfig({
      ...s3Env,
      S3_REGION: 'auto',
      S3_ENDPOINT: 'https://conta.r2.cloudflarestorage.com',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'chave',
      S3_PREFIX: '/producao/aabify/',
      S3_PRESIGNED_DOWNLOADS: '1',
    }).s3;
    expect(full).to.deep.equal({
      bucket: 'aabify-arquivos',
      region: 'auto',
      endpoint: 'https://conta.r2.cloudflarestorage.com',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'chave' },
      prefix: 'producao/aabify/',
      presignedDownloads: true,
    });
  });

  it('loadConfig_trustProxy_acceptsWhatExpressAccepts', () => {
    expect(loadConfig({}).trustProxy).to.equal('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).to.equal(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).to.equal(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,uniquelocal' }).trustProxy).to.equal('loopback,10.0.0.0/8,uniquelocal');
  });

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
