import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, type ApiUser, type AuthResponse, type RegisterResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, DEFAULT_PASSWORD, tokenFor } from './helpers/factories.js';
import { hashPassword, verifyPassword } from '../src/accounts/password.js';

const M = ACCOUNT_MESSAGES;
type Err = { message: string; code: string; fields?: Record<string, string>; retryAfter?: number };

describe('auth (/api/auth)', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  describe('register', () => {
    it('register_validInput_answersASessionOfTheNewCustomer', async () => {
      const res = await api(server).post<AuthResponse & { message: string }>('/auth/register', { acceptTerms: true, email: 'Nova@Example.com', password: 'segredo1', confirmPassword: 'segredo1' });
      expect(res.status).to.equal(201);
      expect(res.body.message).to.equal(ACCOUNT_MESSAGES.registerSuccess);
      expect(res.body.expiresIn).to.equal(7 * 24 * 3600);
      // The token is a working session of that account.
      const me = await api(server).get<ApiUser>('/auth/me', res.body.token);
      expect(me.status).to.equal(200);
      expect(me.body.email).to.equal('nova@example.com');
      const user = res.body.user;
      expect(user).to.include({ email: 'nova@example.com', role: 'user', isActive: true, userType: null, currentPlan: null, conversionsCount: 0, monthlyConversions: 0, emailVerified: false, notifyConversions: true, notifyConversionFailures: true, notifyProductNews: false });
      expect(user.credits).to.deep.equal({ available: 0, reserved: 0 });
      expect(user.subscription).to.deep.equal({ plan: null, startsAt: null, expiresAt: null });
      expect(user.usageSummary).to.deep.equal({
        hasActivePlan: false,
        userType: null,
        credits: 0,
        remainingCredits: 0,
        expiresAt: null,
        isExpired: false,
        planActivatedAt: null,
        planAccess: 'no_plan',
      });
      expect(Object.keys(user).sort()).to.deep.equal(
        ['conversionsCount', 'createdAt', 'credits', 'currentPlan', 'email', 'emailVerified', 'id', 'isActive', 'lastLogin', 'monthlyConversions', 'name', 'notifyConversionFailures', 'notifyConversions', 'notifyProductNews', 'role', 'subscription', 'twoFactorEnabled', 'updatedAt', 'usageSummary', 'userType'].sort(),
      );
      const stored = await server.ctx.models.User.findByPk(user.id);
      expect(stored!.passwordHash).to.match(/^scrypt\$ln=12,r=8,p=1\$/);
      expect(await verifyPassword('segredo1', stored!.passwordHash)).to.equal(true);
    });

    it('register_emailTakenInOtherCase_409WithWhereToSignInAndNothingChanged', async () => {
      const existing = await buildUser(server, { email: 'dup@example.com' });
      const res = await api(server).post<Err>('/auth/register', { acceptTerms: true, email: 'DUP@Example.com', password: 'segredo1' });
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.equal({
        code: 'EMAIL_TAKEN',
        message: ACCOUNT_MESSAGES.registerEmailTaken,
        fields: { email: ACCOUNT_MESSAGES.registerEmailTaken },
        details: { loginPath: '/login', forgotPasswordPath: '/forgot-password' },
      });
      expect(await server.ctx.models.User.count({ where: { email: 'dup@example.com' } })).to.equal(1);
      expect(await verifyPassword(DEFAULT_PASSWORD, (await existing.reload()).passwordHash)).to.equal(true);
    });

    it('register_whereConfirmedEmailIsRequired_noSessionAndNewAndTakenAnswerAlike', async () => {
      await server.ctx.settings.set('accounts.requireVerifiedEmail', true);
      try {
        const existing = await buildUser(server);
        const fresh = await api(server).post<RegisterResponse>('/auth/register', { acceptTerms: true, email: 'confirmar@example.com', password: 'segredo1' });
        const taken = await api(server).post<RegisterResponse>('/auth/register', { acceptTerms: true, email: existing.email, password: 'segredo1' });
        expect(fresh.status).to.equal(201);
        expect(fresh.body).to.deep.equal({ message: EMAIL_MESSAGES.registerCheckEmail, email: 'confirmar@example.com' });
        expect(taken.status).to.equal(201);
        expect(taken.body).to.deep.equal({ message: EMAIL_MESSAGES.registerCheckEmail, email: existing.email });
        expect(await server.ctx.models.User.count({ where: { email: 'confirmar@example.com' } })).to.equal(1);
      } finally {
        await server.ctx.settings.unset('accounts.requireVerifiedEmail');
      }
    });

    it('register_invalidInput_answersSpecMessages', async () => {
      const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
        [{}, { email: 'Email é obrigatório', password: 'Senha é obrigatória' }],
        [{ email: 'x@', password: 'segredo1' }, { email: 'Email inválido' }],
        [{ email: 'x@example.com', password: '12345' }, { password: 'A senha deve ter pelo menos 6 caracteres' }],
        [{ email: 'x@example.com', password: 'segredo1', confirmPassword: 'segredo2' }, { confirmPassword: 'As senhas não coincidem' }],
        [{ email: 'x@example.com', password: 'a'.repeat(129) }, { password: 'A senha deve ter no máximo 128 caracteres' }],
        [{ email: { $ne: 1 }, password: 'segredo1' }, { email: 'Valor inválido' }],
      ];
      for (const [body, fields] of cases) {
        const res = await api(server).post<Err>('/auth/register', { acceptTerms: true, ...body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.deep.equal({ message: Object.values(fields)[0], code: 'VALIDATION_ERROR', fields });
      }
    });

    it('register_roleInBody_isIgnored', async () => {
      const res = await api(server).post('/auth/register', { acceptTerms: true, email: 'sneaky@example.com', password: 'segredo1', role: 'admin', credits: 999 });
      expect(res.status).to.equal(201);
      const stored = await server.ctx.models.User.findOne({ where: { email: 'sneaky@example.com' } });
      expect(stored!.role).to.equal('user');
      expect(stored!.credits).to.equal(0);
    });
  });

  describe('login', () => {
    it('login_rightPassword_answersTokenAndUpdatesLastLogin', async () => {
      const user = await buildUser(server, { email: 'login@example.com' });
      expect(user.lastLogin).to.equal(null);
      const res = await api(server).post<AuthResponse>('/auth/login', { email: ' LOGIN@example.com', password: DEFAULT_PASSWORD });
      expect(res.status).to.equal(200);
      expect(res.body.user.email).to.equal('login@example.com');
      expect(Date.now() - Date.parse(res.body.user.lastLogin!)).to.be.lessThan(10000);
      await user.reload();
      expect(user.lastLogin).to.be.instanceOf(Date);
      expect((await api(server).get('/auth/verify', res.body.token)).status).to.equal(200);
    });

    it('login_wrongPasswordOrUnknownEmail_sameAnswer', async () => {
      await buildUser(server, { email: 'known@example.com' });
      const wrongPassword = await api(server).post<Err>('/auth/login', { email: 'known@example.com', password: 'errada!!' });
      const unknownEmail = await api(server).post<Err>('/auth/login', { email: 'nobody@example.com', password: 'errada!!' });
      for (const res of [wrongPassword, unknownEmail]) {
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ message: 'Email ou senha incorretos.', code: 'INVALID_CREDENTIALS' });
      }
    });

    it('login_missingFields_answersRequiredMessages', async () => {
      const res = await api(server).post<Err>('/auth/login', { email: '' });
      expect(res.status).to.equal(400);
      expect(res.body.fields).to.deep.equal({ email: 'Email é obrigatório', password: 'Senha é obrigatória' });
    });

    it('login_deactivatedUser_answers401WithClearMessage', async () => {
      await buildUser(server, { email: 'off@example.com', isActive: false });
      const res = await api(server).post<Err>('/auth/login', { email: 'off@example.com', password: DEFAULT_PASSWORD });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ message: 'Sua conta está desativada. Entre em contato com o administrador.', code: 'ACCOUNT_DISABLED' });
    });

    it('login_deactivatedUserWrongPassword_revealsNothing', async () => {
      await buildUser(server, { email: 'off2@example.com', isActive: false });
      const res = await api(server).post<Err>('/auth/login', { email: 'off2@example.com', password: 'errada!!' });
      expect(res.body.code).to.equal('INVALID_CREDENTIALS');
    });

    it('login_hashWithOlderParameters_upgradedKeepingSessions', async () => {
      const user = await buildUser(server, { email: 'old@example.com' });
      await user.update({ passwordHash: await hashPassword(DEFAULT_PASSWORD, { ln: 10, r: 8, p: 1 }) });
      await user.reload();
      const before = user.tokenVersion;
      const oldSession = tokenFor(server, user);
      const res = await api(server).post('/auth/login', { email: 'old@example.com', password: DEFAULT_PASSWORD });
      expect(res.status).to.equal(200);
      await user.reload();
      expect(user.passwordHash).to.match(/^scrypt\$ln=12,/);
      expect(user.tokenVersion).to.equal(before);
      expect((await api(server).get('/auth/me', oldSession)).status).to.equal(200);
    });
  });

  describe('login rate limit', () => {
    it('login_sixthFailureForOneAccount_answers429WithRetryAfter', async () => {
      await buildUser(server, { email: 'target@example.com' });
      for (let i = 0; i < 5; i++) {
        const res = await api(server).post('/auth/login', { email: 'target@example.com', password: `errada${i}` });
        expect(res.status).to.equal(401);
      }
      // Even the right password is refused while the account is limited.
      const res = await api(server).post<Err>('/auth/login', { email: 'target@example.com', password: DEFAULT_PASSWORD });
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('RATE_LIMIT');
      expect(res.body.message).to.equal('Muitas tentativas de login. Tente novamente mais tarde.');
      expect(res.body.retryAfter).to.be.within(1, 15 * 60);
      expect(res.headers.get('retry-after')).to.equal(String(res.body.retryAfter));
    });

    it('login_limitForUnknownEmail_sameAsForKnownEmail', async () => {
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) answers.push((await api(server).post('/auth/login', { email: 'ghost@example.com', password: 'errada!!' })).status);
      expect(answers).to.deep.equal([401, 401, 401, 401, 401, 429]);
    });

    it('login_manyAccountsFromOneAddress_limitedPerAddress', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await api(server).post('/auth/login', { email: `spray${i}@example.com`, password: 'errada!!' })).status);
      expect(statuses.slice(0, 20).every((s) => s === 401)).to.equal(true);
      expect(statuses[20]).to.equal(429);
    });

    it('login_success_resetsAccountFailures', async () => {
      await buildUser(server, { email: 'forgetful@example.com' });
      for (let i = 0; i < 4; i++) await api(server).post('/auth/login', { email: 'forgetful@example.com', password: 'errada!!' });
      expect((await api(server).post('/auth/login', { email: 'forgetful@example.com', password: DEFAULT_PASSWORD })).status).to.equal(200);
      for (let i = 0; i < 4; i++) {
        expect((await api(server).post('/auth/login', { email: 'forgetful@example.com', password: 'errada!!' })).status).to.equal(401);
      }
    });
  });

  describe('tokens', () => {
    it('verify_validToken_answersUser', async () => {
      const user = await buildCreditUser(server, 3);
      const res = await api(server).get<{ user: ApiUser }>('/auth/verify', tokenFor(server, user));
      expect(res.status).to.equal(200);
      expect(res.body.user.id).to.equal(user.id);
      expect(res.body.user.usageSummary).to.include({ hasActivePlan: true, userType: 'credit', credits: 3, remainingCredits: 3, planAccess: 'active' });
      expect(res.body.user.currentPlan).to.include({ type: 'credit', credits: 3 });
    });

    it('me_noToken_answers401TokenMissing', async () => {
      const res = await api(server).get<Err>('/auth/me');
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ message: M.tokenMissing, code: 'TOKEN_MISSING' });
    });

    it('me_expiredToken_answers401', async () => {
      const user = await buildUser(server);
      const expired = jwt.sign({ tv: 0 }, server.ctx.secrets.jwtSecret, { subject: user.id, issuer: 'aabify', expiresIn: -10 });
      const res = await api(server).get<Err>('/auth/me', expired);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ message: M.tokenInvalid, code: 'TOKEN_INVALID' });
    });

    it('me_tokenSignedWithPlainSecret_accepted', async () => {
      // The service signs and verifies with a KeyObject of the secret; tokens made from the
      // plain string (before that change) must stay valid.
      const user = await buildUser(server);
      const plain = jwt.sign({ tv: 0 }, server.ctx.secrets.jwtSecret, { subject: user.id, issuer: 'aabify', expiresIn: 60 });
      const res = await api(server).get<ApiUser>('/auth/me', plain);
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(user.id);
      const issued = server.ctx.auth.issueToken(user);
      const claims = jwt.verify(issued, server.ctx.secrets.jwtSecret, { algorithms: ['HS256'], issuer: 'aabify' });
      expect(claims).to.include({ sub: user.id, tv: 0 });
    });

    it('me_forgedTokens_answer401', async () => {
      const user = await buildAdmin(server);
      const forged = [
        jwt.sign({ tv: 0 }, 'another-secret-another-secret-another', { subject: user.id, issuer: 'aabify', expiresIn: 60 }),
        jwt.sign({ tv: 0 }, '', { subject: user.id, issuer: 'aabify', algorithm: 'none' }),
        jwt.sign({ tv: 0 }, server.ctx.secrets.jwtSecret, { subject: user.id, issuer: 'elsewhere', expiresIn: 60 }),
        jwt.sign({ tv: 'x' }, server.ctx.secrets.jwtSecret, { subject: user.id, issuer: 'aabify', expiresIn: 60 }),
        jwt.sign({ tv: 0 }, server.ctx.secrets.jwtSecret, { subject: 'not-a-uuid', issuer: 'aabify', expiresIn: 60 }),
        'not.a.jwt',
        'aab_notarealtoken',
      ];
      for (const token of forged) {
        const res = await api(server).get<Err>('/auth/me', token);
        expect(res.status, token).to.equal(401);
        expect(res.body.code).to.equal('TOKEN_INVALID');
      }
    });

    it('me_deactivatedAfterSignIn_oldTokenRefused', async () => {
      const user = await buildUser(server);
      const token = tokenFor(server, user);
      expect((await api(server).get('/auth/me', token)).status).to.equal(200);
      await user.update({ isActive: false });
      const res = await api(server).get<Err>('/auth/me', token);
      expect(res.status).to.equal(401);
      // Reactivation does not bring old sessions back.
      await user.update({ isActive: true });
      expect((await api(server).get('/auth/me', token)).status).to.equal(401);
      expect((await api(server).get('/auth/me', tokenFor(server, user))).status).to.equal(200);
    });

    it('me_deactivatedWithCurrentToken_answersAccountDisabled', async () => {
      const user = await buildUser(server, { isActive: false });
      const res = await api(server).get<Err>('/auth/me', tokenFor(server, user));
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ message: M.accountDisabled, code: 'ACCOUNT_DISABLED' });
    });

    it('me_deletedUser_answers401', async () => {
      const user = await buildUser(server);
      const token = tokenFor(server, user);
      await user.destroy();
      expect((await api(server).get('/auth/me', token)).status).to.equal(401);
    });

    it('me_validToken_answersUserWithoutSecrets', async () => {
      const user = await buildUser(server, { name: 'Ana' });
      const res = await api(server).get<ApiUser>('/auth/me', tokenFor(server, user));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: user.id, email: user.email, name: 'Ana', role: 'user' });
      expect(JSON.stringify(res.body)).to.not.match(/passwordHash|tokenVersion|scrypt/);
    });
  });

  describe('change-password', () => {
    it('changePassword_valid_changesAndEndsOlderSessions', async () => {
      const user = await buildUser(server);
      const oldToken = tokenFor(server, user);
      const res = await api(server).patch<AuthResponse & { message: string }>(
        '/auth/change-password',
        { currentPassword: DEFAULT_PASSWORD, newPassword: 'nova-senha-1', confirmPassword: 'nova-senha-1' },
        oldToken,
      );
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Senha alterada com sucesso.');
      expect((await api(server).get('/auth/me', oldToken)).status).to.equal(401);
      expect((await api(server).get('/auth/me', res.body.token)).status).to.equal(200);
      const login = await api(server).post('/auth/login', { email: user.email, password: 'nova-senha-1' });
      expect(login.status).to.equal(200);
      expect((await api(server).post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).status).to.equal(401);
    });

    it('changePassword_wrongCurrent_answersSenhaAtualIncorreta', async () => {
      const user = await buildUser(server);
      const res = await api(server).patch<Err>('/auth/change-password', { currentPassword: 'errada!!', newPassword: 'nova-senha-1' }, tokenFor(server, user));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Senha atual incorreta', code: 'WRONG_PASSWORD', fields: { currentPassword: 'Senha atual incorreta' } });
    });

    it('changePassword_invalidInput_answersSpecMessages', async () => {
      const user = await buildUser(server);
      const token = tokenFor(server, user);
      const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
        [{}, { currentPassword: 'Senha atual é obrigatória', newPassword: 'Nova senha deve ter pelo menos 6 caracteres' }],
        [{ currentPassword: DEFAULT_PASSWORD, newPassword: '123' }, { newPassword: 'Nova senha deve ter pelo menos 6 caracteres' }],
        [{ currentPassword: DEFAULT_PASSWORD, newPassword: DEFAULT_PASSWORD }, { newPassword: 'A nova senha deve ser diferente da senha atual' }],
        [{ currentPassword: DEFAULT_PASSWORD, newPassword: 'nova-senha-1', confirmPassword: 'outra-senha' }, { confirmPassword: 'As senhas não coincidem' }],
      ];
      for (const [body, fields] of cases) {
        const res = await api(server).patch<Err>('/auth/change-password', body, token);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.deep.equal({ message: Object.values(fields)[0], code: 'VALIDATION_ERROR', fields });
      }
    });

    it('changePassword_noToken_answers401', async () => {
      expect((await api(server).patch('/auth/change-password', { currentPassword: 'a', newPassword: 'bbbbbb' })).status).to.equal(401);
    });

    it('changePassword_repeatedWrongCurrent_answers429', async () => {
      const user = await buildUser(server);
      const token = tokenFor(server, user);
      for (let i = 0; i < 5; i++) {
        expect((await api(server).patch('/auth/change-password', { currentPassword: `errada${i}`, newPassword: 'nova-senha-1' }, token)).status).to.equal(400);
      }
      const res = await api(server).patch<Err>('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'nova-senha-1' }, token);
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('RATE_LIMIT');
      expect(res.body.retryAfter).to.be.a('number');
    });
  });
});
