import { expect } from 'chai';
import {
  DEFAULT_LEGAL_TEXTS,
  LEGAL_MESSAGES,
  type AdminLegalDocumentResponse,
  type AuthResponse,
  type LegalAcceptanceStatus,
  type LegalDocumentResponse,
} from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';

type Err = { message: string; code: string; fields?: Record<string, string>; details?: Record<string, unknown> };

describe('legal documents (/api/legal, /api/admin/legal) and acceptance', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  async function publish(kind: 'terms' | 'privacy', body: string) {
    const admin = await buildAdmin(server);
    return api(server).post<{ version: number; message: string } & Err>(`/admin/legal/${kind}`, { body }, tokenFor(server, admin));
  }

  it('documents_areReadableSignedOut_andThePrivacyPolicyNamesTheDpo', async () => {
    const terms = await api(server).get<LegalDocumentResponse>('/legal/terms');
    expect(terms.status).to.equal(200);
    expect(terms.body).to.include({ kind: 'terms', title: 'Termos de Uso' });
    expect(terms.body.version).to.be.at.least(1);
    expect(terms.body.dataProtectionOfficer).to.equal(undefined);

    await server.ctx.settings.set('legal.dpoName', 'Joana Encarregada');
    await server.ctx.settings.set('legal.dpoEmail', 'DPO@Empresa.com.br');
    try {
      const privacy = await api(server).get<LegalDocumentResponse>('/legal/privacy');
      expect(privacy.status).to.equal(200);
      expect(privacy.body.title).to.equal('Política de Privacidade');
      expect(privacy.body.dataProtectionOfficer).to.deep.equal({ name: 'Joana Encarregada', email: 'dpo@empresa.com.br' });
    } finally {
      await server.ctx.settings.unset('legal.dpoName');
      await server.ctx.settings.unset('legal.dpoEmail');
    }
  });

  it('register_withoutAcceptance_isAFieldErrorInPtBr_andWithItTheAcceptanceIsRecorded', async () => {
    for (const acceptTerms of [undefined, false, 'não']) {
      const res = await api(server).post<Err>('/auth/register', { email: 'sem-aceite@example.com', password: 'segredo1', acceptTerms });
      expect(res.status, String(acceptTerms)).to.equal(400);
      expect(res.body.code).to.equal('VALIDATION_ERROR');
      expect(res.body.fields).to.have.property('acceptTerms').that.is.oneOf([LEGAL_MESSAGES.acceptRequired, 'Valor inválido']);
    }
    expect(await server.ctx.models.User.count({ where: { email: 'sem-aceite@example.com' } })).to.equal(0);

    const current = await server.ctx.legal.currentVersions();
    const res = await api(server).post<AuthResponse>('/auth/register', { email: 'com-aceite@example.com', password: 'segredo1', acceptTerms: true }, undefined, {
      headers: { 'user-agent': 'Navegador de Teste' },
    });
    expect(res.status).to.equal(201);
    const user = await server.ctx.models.User.findOne({ where: { email: 'com-aceite@example.com' } });
    expect(user).to.include({ termsAcceptedVersion: current.terms, privacyAcceptedVersion: current.privacy });
    const rows = await server.ctx.models.LegalAcceptance.findAll({ where: { userId: user!.id } });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ termsVersion: current.terms, privacyVersion: current.privacy, userAgent: 'Navegador de Teste' });
    expect(rows[0].address).to.be.a('string').and.not.equal('');
    expect(Date.now() - rows[0].acceptedAt.getTime()).to.be.below(60_000);
    const status = await api(server).get<LegalAcceptanceStatus>('/legal/acceptance', res.body.token);
    expect(status.body.required).to.equal(false);
  });

  it('newVersion_asksSignedInCustomersAgain_untilTheyAccept_adminsGoOn', async () => {
    const customer = await buildCreditUser(server, 3);
    const session = tokenFor(server, customer);
    expect((await api(server).get('/conversion/usage', session)).status).to.equal(200);

    const published = await publish('terms', 'Termos novos: o serviço agora também guarda relatórios de conversão por 30 dias.');
    expect(published.status).to.equal(201);
    const current = await server.ctx.legal.currentVersions();
    expect(current.terms).to.equal(published.body.version);

    const refused = await api(server).get<Err>('/conversion/usage', session);
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('LEGAL_ACCEPTANCE_REQUIRED');
    expect(refused.body.message).to.equal(LEGAL_MESSAGES.acceptanceRequired);
    expect(refused.body.details).to.deep.include({ accept: '/api/legal/acceptance' });

    // What stays open: who am I, the status, the acceptance itself.
    expect((await api(server).get('/auth/me', session)).status).to.equal(200);
    const status = await api(server).get<LegalAcceptanceStatus>('/legal/acceptance', session);
    expect(status.body).to.deep.include({ required: true, current });

    // An administrator is not a customer: never asked.
    const admin = await buildAdmin(server, { termsAcceptedVersion: null, privacyAcceptedVersion: null });
    expect((await api(server).get('/admin/dashboard', tokenFor(server, admin))).status).to.equal(200);

    // Accepting an older version than the current one is refused.
    const stale = await api(server).post<Err>('/legal/acceptance', { termsVersion: current.terms - 1, privacyVersion: current.privacy }, session);
    expect(stale.status).to.equal(409);
    expect(stale.body.code).to.equal('LEGAL_VERSION_OUTDATED');
    const invalid = await api(server).post<Err>('/legal/acceptance', { termsVersion: 'x', privacyVersion: 0 }, session);
    expect(invalid.status).to.equal(400);
    expect(invalid.body.fields).to.deep.equal({ termsVersion: 'Valor inválido', privacyVersion: LEGAL_MESSAGES.versionInvalid });

    const accepted = await api(server).post<{ message: string }>('/legal/acceptance', { termsVersion: current.terms, privacyVersion: current.privacy }, session);
    expect(accepted.status).to.equal(200);
    expect(accepted.body.message).to.equal(LEGAL_MESSAGES.accepted);
    expect((await api(server).get('/conversion/usage', session)).status).to.equal(200);
    const events = await server.ctx.models.AuditEvent.findAll({ where: { accountId: customer.id, action: 'legal.accepted' } });
    expect(events).to.have.length(1);
  });

  it('admin_publishesVersions_keepsEveryOne_andRefusesBadInput', async () => {
    const admin = await buildAdmin(server);
    const token = tokenFor(server, admin);
    const first = await publish('privacy', 'Política v2: guardamos o endereço IP de cada acesso por seis meses.');
    const second = await publish('privacy', 'Política v3: guardamos o endereço IP de cada acesso por três meses.');
    expect(second.body.version).to.equal(first.body.version + 1);

    const doc = await api(server).get<AdminLegalDocumentResponse>('/admin/legal/privacy', token);
    expect(doc.status).to.equal(200);
    expect(doc.body.document).to.include({ version: second.body.version, body: 'Política v3: guardamos o endereço IP de cada acesso por três meses.' });
    expect(doc.body.versions.map((v) => v.version)).to.deep.equal([second.body.version, first.body.version, 1]);
    expect(doc.body.versions[0].publishedBy).to.be.a('string');

    const old = await api(server).get<LegalDocumentResponse>(`/admin/legal/privacy/versions/${first.body.version}`, token);
    expect(old.body.body).to.equal('Política v2: guardamos o endereço IP de cada acesso por seis meses.');
    const shipped = await api(server).get<LegalDocumentResponse>('/admin/legal/privacy/versions/1', token);
    expect(shipped.body.body).to.equal(DEFAULT_LEGAL_TEXTS.privacy);
    expect((await api(server).get<Err>('/admin/legal/privacy/versions/999', token)).body.code).to.equal('LEGAL_DOCUMENT_NOT_FOUND');
    expect((await api(server).get<Err>('/admin/legal/cookies', token)).status).to.equal(404);

    const same = await publish('privacy', 'Política v3: guardamos o endereço IP de cada acesso por três meses.');
    expect(same.status).to.equal(409);
    expect(same.body.code).to.equal('LEGAL_BODY_UNCHANGED');
    const short = await publish('terms', 'curto');
    expect(short.status).to.equal(400);
    expect(short.body.fields).to.deep.equal({ body: LEGAL_MESSAGES.bodyTooShort });

    // Customers may not publish.
    const customer = await buildUser(server);
    expect((await api(server).post('/admin/legal/terms', { body: 'x'.repeat(40) }, tokenFor(server, customer))).status).to.equal(403);
    expect((await api(server).get('/admin/legal/terms')).status).to.equal(401);
  });
});

describe('support contact (/api/support)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('supportContact_isPublic_andWhatsappNumbersBecomeLinks', async () => {
    expect((await api(server).get('/support')).body).to.deep.equal({ email: null, whatsapp: null });
    await server.ctx.settings.set('support.email', 'Suporte@Empresa.com.br');
    await server.ctx.settings.set('support.whatsapp', '+55 (11) 91234-5678');
    expect((await api(server).get('/support')).body).to.deep.equal({ email: 'suporte@empresa.com.br', whatsapp: 'https://wa.me/5511912345678' });
    let refused: unknown;
    await server.ctx.settings.set('support.whatsapp', '1234').catch((err: unknown) => (refused = err));
    expect(String(refused)).to.contain('DDI e DDD');
  });
});
