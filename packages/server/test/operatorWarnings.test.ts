import { expect } from 'chai';
import { OPERATOR_WARNINGS, type OperatorWarningsResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';

describe('operator warnings (/api/admin/dashboard/warnings)', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.stop();
  });

  it('aBareInstall_isWarnedOfEachMissingPiece_withWhatToDo_andAPlanClearsItsWarning', async () => {
    const server = await startTestServer();
    servers.push(server);
    const admin = tokenFor(server, await buildAdmin(server));
    const first = await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin);
    expect(first.status).to.equal(200);
    expect(first.body.warnings.map((w) => w.code)).to.have.members(['NO_BUYABLE_PLAN', 'NO_SMTP', 'NO_PUBLIC_URL']);
    expect(first.body.warnings.find((w) => w.code === 'NO_BUYABLE_PLAN')).to.deep.equal({ code: 'NO_BUYABLE_PLAN', ...OPERATOR_WARNINGS.NO_BUYABLE_PLAN });

    const plan = await buildPlan(server, { isActive: false });
    expect((await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin)).body.warnings.map((w) => w.code)).to.include('NO_BUYABLE_PLAN');
    await plan.update({ isActive: true });
    expect((await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin)).body.warnings.map((w) => w.code)).to.not.include('NO_BUYABLE_PLAN');

    const customer = tokenFor(server, await buildUser(server));
    expect((await api(server).get('/admin/dashboard/warnings', customer)).status).to.equal(403);
  });

  it('withSmtpAndPublicUrl_onlyTheMissingPlanIsSaid', async () => {
    const server = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://aabify.example.com' });
    servers.push(server);
    const admin = tokenFor(server, await buildAdmin(server));
    const res = await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin);
    expect(res.body.warnings.map((w) => w.code)).to.deep.equal(['NO_BUYABLE_PLAN']);
  });

  it('aShopThatSells_isWarnedOfMissingSellerDataAndNfseProvider_untilTheyAreConfigured', async () => {
    const server = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://aabify.example.com' });
    servers.push(server);
    const admin = tokenFor(server, await buildAdmin(server));
    await buildPlan(server, { isActive: true });
    const codes = async () => (await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin)).body.warnings.map((w) => w.code);
    const selling = await api(server).get<OperatorWarningsResponse>('/admin/dashboard/warnings', admin);
    expect(selling.body.warnings).to.deep.equal([
      { code: 'NO_SELLER_DATA', ...OPERATOR_WARNINGS.NO_SELLER_DATA },
      { code: 'NO_NFSE_PROVIDER', ...OPERATOR_WARNINGS.NO_NFSE_PROVIDER },
    ]);
    await server.ctx.settings.set('fiscal.sellerName', 'Vendedora Ltda');
    await server.ctx.settings.set('fiscal.sellerCnpj', '11444777000161');
    await server.ctx.settings.set('fiscal.sellerAddress', 'Rua X, 1 – Centro – São Paulo/SP – CEP 01001-000');
    expect(await codes()).to.include('NO_SELLER_DATA');
    await server.ctx.settings.set('fiscal.sellerEmail', 'fiscal@vendedora.example');
    expect(await codes()).to.deep.equal(['NO_NFSE_PROVIDER']);
    await server.ctx.settings.set('nfse.token', 'token-da-focus');
    expect(await codes()).to.deep.equal([]);
  });
});
