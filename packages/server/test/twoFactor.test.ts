/**
 * Two-factor sign-in (TOTP) through real HTTP: enrolment behind a recent password, a sign-in
 * that gives no session before the code, codes and recovery codes that work once, the sign-in
 * limits applied to codes, disabling with password and code, e-mailed links that cannot skip
 * the code, the admin setting that limits an admin's session to enrolment, and the secret
 * sealed at rest (and re-sealed on key rotation).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { pino } from 'pino';
import {
  SECURITY_MESSAGES,
  type AuthResponse,
  type RecoveryCodesResponse,
  type SignInResponse,
  type TwoFactorChallengeResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatus,
} from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, buildUser } from './helpers/factories.js';
import { enrolTwoFactor, totpCode } from './helpers/twoFactor.js';
import { issueEmailLink } from '../src/mail/links.js';
import { isEncryptedValue, openJson } from '../src/settings/crypto.js';
import { reencryptWithCurrentKey } from '../src/settings/rotation.js';
import { totpAad } from '../src/accounts/twoFactor.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string; fields?: Record<string, string>; details?: unknown };
const STEP_MS = 30_000;

describe('two-factor sign-in (TOTP)', function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  const login = (user: User, password = DEFAULT_PASSWORD) => api(server).post<SignInResponse & Err>('/auth/login', { email: user.email, password });
  const session = async (user: User): Promise<string> => {
    const res = await login(user);
    expect(res.status).to.equal(200);
    return (res.body as AuthResponse).token;
  };
  const challengeOf = async (user: User): Promise<string> => {
    const res = await login(user);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ twoFactorRequired: true, message: SECURITY_MESSAGES.twoFactorChallengePrompt });
    expect(res.body).to.not.have.property('token');
    return (res.body as TwoFactorChallengeResponse).challenge;
  };
  const secondStep = (challenge: string, code: string) => api(server).post<AuthResponse & Err>('/auth/login/2fa', { challenge, code });
  const works = async (token: string) => (await api(server).get('/auth/me', token)).status === 200;

  it('enrol_secretAsQrAndText_firstCodeEnables_tenRecoveryCodes_secretSealedAtRest', async () => {
    const user = await buildUser(server);
    const token = await session(user);
    const setup = await api(server).post<TwoFactorSetupResponse>('/auth/2fa/setup', undefined, token);
    expect(setup.status).to.equal(200);
    expect(setup.body.secret).to.match(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).to.match(/^otpauth:\/\/totp\/aabify:/).and.contain(`secret=${setup.body.secret}`);
    expect(Buffer.from(setup.body.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).to.contain('<svg');
    // Not on before a code confirms the app has it.
    expect((await api(server).get<TwoFactorStatus>('/auth/2fa', token)).body.enabled).to.equal(false);
    const wrong = await api(server).post<Err>('/auth/2fa/enable', { code: totpCode(setup.body.secret, Date.now() - 10 * STEP_MS) }, token);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.code).to.equal('TWO_FACTOR_CODE_INVALID');

    const enabled = await api(server).post<RecoveryCodesResponse>('/auth/2fa/enable', { code: totpCode(setup.body.secret) }, token);
    expect(enabled.status).to.equal(200);
    expect(enabled.body.recoveryCodes).to.have.length(10);
    expect(new Set(enabled.body.recoveryCodes).size).to.equal(10);
    for (const code of enabled.body.recoveryCodes) expect(code).to.match(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    const status = (await api(server).get<TwoFactorStatus>('/auth/2fa', token)).body;
    expect(status).to.include({ enabled: true, recoveryCodesLeft: 10 });
    expect((await api(server).post<Err>('/auth/2fa/setup', undefined, token)).body.code).to.equal('TWO_FACTOR_ALREADY_ENABLED');

    const row = await server.ctx.models.User.findByPk(user.id);
    const stored = JSON.stringify(row!.get({ plain: true }));
    expect(stored).to.not.contain(setup.body.secret);
    for (const code of enabled.body.recoveryCodes) expect(stored).to.not.contain(code.replace(/-/g, ''));
    expect(isEncryptedValue(row!.totpSecret)).to.equal(true);
  });

  it('setup_sessionOlderThanTenMinutes_reauthRequired_thenAllowedAfterThePassword', async () => {
    const user = await buildUser(server);
    const token = await session(user);
    await server.ctx.models.Session.update({ verifiedAt: new Date(Date.now() - 11 * 60_000) }, { where: { userId: user.id } });
    const refused = await api(server).post<Err>('/auth/2fa/setup', undefined, token);
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.include({ code: 'REAUTH_REQUIRED', message: SECURITY_MESSAGES.reauthRequired });
    const wrong = await api(server).post<Err>('/auth/reauth', { password: 'errada-123' }, token);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.code).to.equal('WRONG_PASSWORD');
    expect(await works(token)).to.equal(true);
    const reauth = await api(server).post<{ verifiedUntil: string }>('/auth/reauth', { password: DEFAULT_PASSWORD }, token);
    expect(reauth.status).to.equal(200);
    expect(Date.parse(reauth.body.verifiedUntil) - Date.now()).to.be.within(9 * 60_000, 10 * 60_000);
    expect((await api(server).post('/auth/2fa/setup', undefined, token)).status).to.equal(200);
  });

  it('signIn_noSessionBeforeTheCode_codeWorksOnce_challengeOpensOneSession', async () => {
    const user = await buildUser(server);
    const { secret } = await enrolTwoFactor(server, await session(user));

    const challenge = await challengeOf(user);
    // The challenge is no session.
    expect((await api(server).get<Err>('/auth/me', challenge)).status).to.equal(401);
    const wrong = await secondStep(challenge, totpCode(secret, Date.now() - 10 * STEP_MS));
    expect(wrong.status).to.equal(401);
    expect(wrong.body).to.deep.include({ code: 'TWO_FACTOR_CODE_INVALID', message: SECURITY_MESSAGES.twoFactorCodeInvalid });

    // The code the enrolment used is spent: the next step's code signs in.
    const code = totpCode(secret, Date.now() + STEP_MS);
    const signedIn = await secondStep(challenge, code);
    expect(signedIn.status, JSON.stringify(signedIn.body)).to.equal(200);
    expect(await works(signedIn.body.token)).to.equal(true);
    expect(signedIn.body.user.twoFactorEnabled).to.equal(true);

    // Neither the challenge nor the code opens a second session.
    const again = await secondStep(challenge, totpCode(secret, Date.now() + 2 * STEP_MS));
    expect(again.body.code).to.equal('TWO_FACTOR_CHALLENGE_INVALID');
    const replay = await secondStep(await challengeOf(user), code);
    expect(replay.status).to.equal(401);
    expect(replay.body.code).to.equal('TWO_FACTOR_CODE_INVALID');
  });

  it('signIn_recoveryCode_worksOnceWhateverItsCaseAndSpaces', async () => {
    const user = await buildUser(server);
    const { recoveryCodes } = await enrolTwoFactor(server, await session(user));
    const typed = ` ${recoveryCodes[3].toUpperCase().replace(/-/g, ' ')} `;
    const signedIn = await secondStep(await challengeOf(user), typed);
    expect(signedIn.status, JSON.stringify(signedIn.body)).to.equal(200);
    expect((await api(server).get<TwoFactorStatus>('/auth/2fa', signedIn.body.token)).body.recoveryCodesLeft).to.equal(9);
    const reused = await secondStep(await challengeOf(user), recoveryCodes[3]);
    expect(reused.status).to.equal(401);
    expect(reused.body.code).to.equal('TWO_FACTOR_CODE_INVALID');
  });

  it('codes_underTheSignInLimits_guessesStopAt429', async () => {
    const user = await buildUser(server);
    const { secret } = await enrolTwoFactor(server, await session(user));
    const challenge = await challengeOf(user);
    const stale = totpCode(secret, Date.now() - 20 * STEP_MS);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await secondStep(challenge, stale)).status);
    // Five per account and address (the password's own allowance), then refused unchecked.
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
    const right = await secondStep(challenge, totpCode(secret, Date.now() + STEP_MS));
    expect(right.status).to.equal(429);
  });

  it('recoveryCodes_regenerated_oldOnesStopWorking', async () => {
    const user = await buildUser(server);
    const token = await session(user);
    const { recoveryCodes: old } = await enrolTwoFactor(server, token);
    const fresh = await api(server).post<RecoveryCodesResponse>('/auth/2fa/recovery-codes', undefined, token);
    expect(fresh.status).to.equal(200);
    expect(fresh.body.recoveryCodes).to.have.length(10);
    expect((await secondStep(await challengeOf(user), old[0])).status).to.equal(401);
    expect((await secondStep(await challengeOf(user), fresh.body.recoveryCodes[0])).status).to.equal(200);
  });

  it('disable_needsThePasswordAndACode_thenSignInIsThePasswordAlone', async () => {
    const user = await buildUser(server);
    const token = await session(user);
    const { secret } = await enrolTwoFactor(server, token);
    const code = totpCode(secret, Date.now() + STEP_MS);
    const noPassword = await api(server).post<Err>('/auth/2fa/disable', { password: 'errada-123', code }, token);
    expect(noPassword.body.code).to.equal('WRONG_PASSWORD');
    const noCode = await api(server).post<Err>('/auth/2fa/disable', { password: DEFAULT_PASSWORD, code: totpCode(secret, Date.now() - 20 * STEP_MS) }, token);
    expect(noCode.body.code).to.equal('TWO_FACTOR_CODE_INVALID');
    const off = await api(server).post<Err>('/auth/2fa/disable', { password: DEFAULT_PASSWORD, code }, token);
    expect(off.status).to.equal(200);
    expect(off.body.message).to.equal(SECURITY_MESSAGES.twoFactorDisabled);
    const signIn = await login(user);
    expect(signIn.body).to.have.property('token');
    const row = await server.ctx.models.User.findByPk(user.id);
    expect([row!.totpSecret, row!.totpEnabledAt, row!.recoveryCodes]).to.deep.equal([null, null, []]);
  });

  it('resetPasswordLink_onATwoFactorAccount_answersTheChallengeNotASession', async () => {
    const user = await buildUser(server);
    const { secret } = await enrolTwoFactor(server, await session(user));
    const link = await issueEmailLink(server.ctx.models, user, 'password_reset');
    const reset = await api(server).post<SignInResponse & { message: string }>('/auth/reset-password', { token: link.token, password: 'nova-senha-123' });
    expect(reset.status).to.equal(200);
    expect(reset.body).to.include({ twoFactorRequired: true, message: SECURITY_MESSAGES.passwordResetTwoFactor });
    expect(reset.body).to.not.have.property('token');
    const signedIn = await secondStep((reset.body as TwoFactorChallengeResponse).challenge, totpCode(secret, Date.now() + STEP_MS));
    expect(signedIn.status).to.equal(200);
  });

  it('adminRequiredSetting_sessionLimitedToEnrolmentUntilDone', async () => {
    await server.ctx.settings.set('accounts.requireAdminTwoFactor', true);
    try {
      const admin = await buildAdmin(server);
      const signIn = await login(admin);
      const token = (signIn.body as AuthResponse).token;
      expect((signIn.body as AuthResponse).user.twoFactorSetupRequired).to.equal(true);
      const refused = await api(server).get<Err>('/admin/users', token);
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.include({ code: 'TWO_FACTOR_SETUP_REQUIRED', message: SECURITY_MESSAGES.twoFactorSetupRequired });
      expect((await api(server).get<Err>('/conversion/history', token)).body.code).to.equal('TWO_FACTOR_SETUP_REQUIRED');
      expect((await api(server).get<{ twoFactorSetupRequired?: boolean }>('/auth/me', token)).body.twoFactorSetupRequired).to.equal(true);
      const status = await api(server).get<TwoFactorStatus>('/auth/2fa', token);
      expect(status.body).to.include({ enabled: false, requiredForAccount: true });

      await enrolTwoFactor(server, token);
      expect((await api(server).get('/admin/users', token)).status).to.equal(200);
      expect((await api(server).get<{ twoFactorSetupRequired?: boolean }>('/auth/me', token)).body).to.not.have.property('twoFactorSetupRequired');
      // A customer is not concerned by the setting.
      expect(await login(await buildUser(server)).then((r) => (r.body as AuthResponse).user.twoFactorSetupRequired)).to.equal(undefined);
    } finally {
      await server.ctx.settings.unset('accounts.requireAdminTwoFactor');
    }
  });

  it('keyRotation_reencryptsTheSecret_codesStillWork', async () => {
    const user = await buildUser(server);
    const { secret } = await enrolTwoFactor(server, await session(user));
    const previous = server.ctx.secrets.encryptionKey;
    const current = randomBytes(32).toString('base64');
    const logger = pino({ level: 'silent' });
    try {
      expect(await reencryptWithCurrentKey(server.ctx.sequelize, { current, previous }, logger)).to.be.greaterThan(0);
      const row = await server.ctx.models.User.findByPk(user.id);
      expect(openJson(row!.totpSecret as never, { current }, totpAad(user.id))).to.deep.equal({ value: secret, stale: false });
    } finally {
      // Back to the key this server runs with.
      await reencryptWithCurrentKey(server.ctx.sequelize, { current: previous, previous: current }, logger);
    }
    const signedIn = await secondStep(await challengeOf(user), totpCode(secret, Date.now() + STEP_MS));
    expect(signedIn.status).to.equal(200);
  });
});
