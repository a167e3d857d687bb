import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { SETTING_MESSAGES, SettingValueError, maskSecret } from '../src/settings/index.js';
import { decryptJson, encryptJson } from '../src/settings/crypto.js';

const TOKEN = 'APP_USR-1234567890-abcdef-SECRET-9876';

describe('settings service', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ MERCADOPAGO_WEBHOOK_SECRET: 'env-webhook-secret-0042' });
  });
  after(async () => server?.stop());
  afterEach(async () => {
    for (const key of ['payments.mercadopago.accessToken', 'payments.mercadopago.publicKey', 'upload.maxFileSize'] as const) await server.ctx.settings.unset(key);
  });

  it('crypto_roundTrip_wrongAadOrTamperedFails', () => {
    const key = server.ctx.secrets.encryptionKey;
    const box = encryptJson('segredo', key, 'k1');
    expect(decryptJson(box, key, 'k1')).to.equal('segredo');
    expect(() => decryptJson(box, key, 'k2')).to.throw();
    expect(() => decryptJson({ ...box, data: Buffer.from('xx').toString('base64') }, key, 'k1')).to.throw();
  });

  it('set_secretKey_storedEncryptedAtRestAndReadBackPlain', async () => {
    await server.ctx.settings.set('payments.mercadopago.accessToken', TOKEN);
    const rows = await server.ctx.sequelize.query<{ value: unknown; encrypted: boolean }>(
      `SELECT value, encrypted FROM settings WHERE key = 'payments.mercadopago.accessToken'`,
      { type: QueryTypes.SELECT },
    );
    expect(rows[0].encrypted).to.equal(true);
    expect(JSON.stringify(rows[0].value)).to.not.contain('SECRET');
    expect(rows[0].value).to.have.keys(['alg', 'iv', 'tag', 'data']);
    expect(await server.ctx.settings.get('payments.mercadopago.accessToken')).to.equal(TOKEN);
  });

  it('entry_secretKey_maskedLastFourOnly', async () => {
    await server.ctx.settings.set('payments.mercadopago.accessToken', TOKEN);
    const entry = await server.ctx.settings.entry('payments.mercadopago.accessToken');
    expect(entry).to.deep.include({ value: '••••••••9876', isSecret: true, isSet: true, source: 'database' });
    const all = JSON.stringify(await server.ctx.settings.list());
    expect(all).to.not.contain(TOKEN);
    expect(all).to.not.contain('env-webhook-secret-0042');
    expect(maskSecret('short')).to.equal('••••••••');
  });

  it('get_unsetSecret_fallsBackToEnvironment', async () => {
    expect(await server.ctx.settings.get('payments.mercadopago.webhookSecret')).to.equal('env-webhook-secret-0042');
    expect((await server.ctx.settings.entry('payments.mercadopago.webhookSecret')).source).to.equal('default');
    expect(await server.ctx.settings.get('payments.mercadopago.accessToken')).to.equal(null);
    expect((await server.ctx.settings.entry('payments.mercadopago.accessToken')).source).to.equal('unset');
  });

  it('set_numberSetting_parsedAndRangeChecked', async () => {
    expect(await server.ctx.settings.set('upload.maxFileSize', '2097152')).to.equal(2097152);
    expect(await server.ctx.settings.get('upload.maxFileSize')).to.equal(2097152);
    expect(await server.ctx.settings.set('upload.maxFileSize', '0'), '0 = no limit').to.equal(0);
    for (const [input, message] of [['', SETTING_MESSAGES.empty], ['abc', SETTING_MESSAGES.notNumber], [10, 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite']] as const) {
      let error: unknown;
      try {
        await server.ctx.settings.set('upload.maxFileSize', input);
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(SettingValueError);
      expect((error as Error).message).to.equal(message);
    }
  });

  it('gateway_accessTokenSetting_switchesProviderAtOnce', async () => {
    expect(await server.ctx.payments.mode()).to.equal('sandbox');
    await server.ctx.settings.set('payments.mercadopago.accessToken', TOKEN);
    await server.ctx.settings.set('payments.mercadopago.publicKey', 'APP_USR-public-0001');
    expect(await server.ctx.payments.mode()).to.equal('mercadopago');
    const config = await api(server).get('/payments/config');
    expect(config.body).to.deep.include({ provider: 'mercadopago', publicKey: 'APP_USR-public-0001' });
    expect(JSON.stringify(config.body)).to.not.contain(TOKEN);
    await server.ctx.settings.unset('payments.mercadopago.accessToken');
    expect(await server.ctx.payments.mode()).to.equal('sandbox');
  });
});

describe('settings service: the log level', () => {
  it('otherSettingChanged_startLevelKept_adminLevelAppliedThenItsRemovalRestoresTheStartLevel', async () => {
    const { pino } = await import('pino');
    const logger = pino({ level: 'warn' });
    const server = await startTestServer({}, { logger });
    try {
      const settle = () => new Promise((r) => setTimeout(r, 300));
      // Any other setting (and a reload of all of them) leaves the start level alone.
      await server.ctx.settings.set('upload.maxFileSize', 200 * 1024 * 1024);
      await settle();
      expect(logger.level).to.equal('warn');
      // An admin's level applies…
      await server.ctx.settings.set('logging.level', 'debug');
      await settle();
      expect(logger.level).to.equal('debug');
      // …and without it the start level is back, not the setting's default ('info').
      await server.ctx.settings.unset('logging.level');
      await settle();
      expect(logger.level).to.equal('warn');
    } finally {
      await server.stop();
    }
  });
});
