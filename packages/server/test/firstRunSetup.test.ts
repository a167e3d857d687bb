import { expect } from 'chai';
import { ACCOUNT_MESSAGES, type ApiUser, type SetupResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';

const M = ACCOUNT_MESSAGES;

describe('first-run setup (/api/setup)', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server?.stop();
  });

  it('status_noAdmin_requiresSetup', async () => {
    const res = await api(server).get('/setup/status');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ requiresSetup: true });
  });

  it('status_onlyRegularUsers_stillRequiresSetup', async () => {
    await api(server).post('/auth/register', { acceptTerms: true, email: 'cliente@example.com', password: 'segredo1' });
    expect((await api(server).get('/setup/status')).body).to.deep.equal({ requiresSetup: true });
  });

  it('initialize_validInput_createsAdminAndSignsIn', async () => {
    const res = await api(server).post<SetupResponse>('/setup/initialize', {
      email: ' Admin@Example.COM ',
      password: 'segredo1',
      confirmPassword: 'segredo1',
      name: 'Maria',
    });
    expect(res.status).to.equal(201);
    expect(res.body.success).to.equal(true);
    expect(res.body.message).to.equal('Administrador criado com sucesso! Redirecionando...');
    expect(res.body.token).to.be.a('string');
    expect(res.body.user).to.include({ email: 'admin@example.com', name: 'Maria', role: 'admin', isActive: true });
    expect(res.body.user.lastLogin).to.be.a('string');
    expect(res.body.user).to.not.have.property('passwordHash');

    const me = await api(server).get<ApiUser>('/auth/me', res.body.token);
    expect(me.status).to.equal(200);
    expect(me.body.role).to.equal('admin');
    expect(me.body.usageSummary.planAccess).to.equal('active');
    expect((await api(server).get('/setup/status')).body).to.deep.equal({ requiresSetup: false });
  });

  it('initialize_noName_usesAdministrador', async () => {
    const res = await api(server).post<SetupResponse>('/setup/initialize', { email: 'a@example.com', password: 'segredo1', name: '' });
    expect(res.status).to.equal(201);
    expect(res.body.user.name).to.equal('Administrador');
  });

  it('initialize_afterFirstAdmin_answers403ForeverWhateverTheBody', async () => {
    expect((await api(server).post('/setup/initialize', { email: 'a@example.com', password: 'segredo1' })).status).to.equal(201);
    for (const body of [{ email: 'b@example.com', password: 'segredo2' }, {}, { email: 'a@example.com', password: 'segredo1' }]) {
      const res = await api(server).post('/setup/initialize', body);
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ message: M.setupAlreadyDone, code: 'SETUP_ALREADY_DONE' });
    }
    expect(await server.ctx.models.User.count({ where: { role: 'admin' } })).to.equal(1);
  });

  it('initialize_adminDeleted_staysClosed', async () => {
    await api(server).post('/setup/initialize', { email: 'a@example.com', password: 'segredo1' });
    await server.ctx.models.User.destroy({ where: { email: 'a@example.com' } });
    expect((await api(server).get('/setup/status')).body).to.deep.equal({ requiresSetup: false });
    expect((await api(server).post('/setup/initialize', { email: 'b@example.com', password: 'segredo1' })).status).to.equal(403);
  });

  it('initialize_twoConcurrentCalls_createExactlyOneAdmin', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api(server).post('/setup/initialize', { email: `admin${i}@example.com`, password: 'segredo1' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).to.deep.equal([201, 403, 403, 403, 403]);
    expect(await server.ctx.models.User.count({ where: { role: 'admin' }, paranoid: false })).to.equal(1);
  });

  it('initialize_invalidInput_answersFieldsWithSpecMessages', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, { email: 'Email é obrigatório', password: 'Senha é obrigatória' }],
      [{ email: 'não-é-email', password: 'segredo1' }, { email: 'Email inválido' }],
      [{ email: 'a@example.com', password: '12345' }, { password: 'Senha deve ter no mínimo 6 caracteres' }],
      [{ email: 'a@example.com', password: 'segredo1', confirmPassword: 'outra' }, { confirmPassword: 'As senhas não coincidem' }],
    ];
    for (const [body, fields] of cases) {
      const res = await api(server).post('/setup/initialize', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.deep.equal({ message: Object.values(fields)[0], code: 'VALIDATION_ERROR', fields });
    }
    expect((await api(server).get('/setup/status')).body).to.deep.equal({ requiresSetup: true });
  });

  it('initialize_emailOfExistingUser_answers409WithFieldError', async () => {
    await api(server).post('/auth/register', { acceptTerms: true, email: 'cliente@example.com', password: 'segredo1' });
    const res = await api(server).post('/setup/initialize', { email: 'CLIENTE@example.com', password: 'segredo1' });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ message: M.emailTaken, code: 'EMAIL_TAKEN', fields: { email: M.emailTaken } });
  });
});
