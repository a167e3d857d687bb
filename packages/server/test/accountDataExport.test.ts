import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_EXPORT_LIMITS, PRIVACY_MESSAGES, type DataExportJson, type DataExportListResponse, type DataExportRequestResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, DEFAULT_PASSWORD, tokenFor } from './helpers/factories.js';
import { buildConversion, buildPlan, buildPurchase } from './helpers/adminFactories.js';
import { requireTool, waitFor } from './helpers/conversions.js';
import { generateApiToken } from '../src/accounts/tokens.js';
import { expireDataExports } from '../src/privacy/dataExport.js';

type Err = { message: string; code: string };

/** The zip's entries by name, read back by Info-ZIP's unzip (an independent reader). */
async function readZip(bytes: Buffer): Promise<Map<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'aabify-export-'));
  try {
    const file = join(dir, 'export.zip');
    await writeFile(file, bytes);
    execFileSync('unzip', ['-tq', file]);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    return new Map(names.map((name) => [name, execFileSync('unzip', ['-p', file, name], { encoding: 'utf8', maxBuffer: 64 << 20 })]));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function download(server: TestServer, token: string, id: string): Promise<Response> {
  return fetch(`${server.url}/api/account/exports/${id}/file`, { headers: { authorization: `Bearer ${token}` } });
}

describe('"Meus dados": exporting the account\'s data (/api/account/exports)', () => {
  describe('with the jobs running', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server?.stop();
    });
    beforeEach(() => server.ctx.rateLimits.reset());

    /** The export once the job has written it, as the owner's list shows it. */
    function whenReady(token: string, id: string): Promise<DataExportJson> {
      return waitFor(async () => {
        const list = await api(server).get<DataExportListResponse>('/account/exports', token);
        const row = list.body.exports.find((e) => e.id === id);
        expect(row?.status).to.not.equal('failed');
        return row?.status === 'ready' ? row : undefined;
      }, 30_000, 'the export to be ready');
    }

    async function readyExport(token: string): Promise<DataExportJson> {
      const asked = await api(server).post<DataExportRequestResponse>('/account/exports', {}, token);
      expect(asked.status).to.equal(202);
      return whenReady(token, asked.body.export.id);
    }

    it('export_holdsPurchasesConversionsLogsTokensAndSessions_withoutAnySecret', async function () {
      requireTool(this, 'unzip', 'apt-get install unzip');
      const user = await buildCreditUser(server, 5, { name: 'Joana Exportação' });
      const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date(), fileName: 'meu app versão final.apk' });
      await server.ctx.models.ConversionLog.create({ conversionId: conversion.id, timestamp: new Date(), level: 'info', step: 'done', message: 'Conversão concluída com sucesso' });
      const plan = await buildPlan(server, { name: 'Plano Exportável' });
      const purchase = await buildPurchase(server, user, plan, { status: 'approved' });
      const apiToken = generateApiToken();
      await server.ctx.models.ApiToken.create({ userId: user.id, name: 'CI do app', tokenHash: apiToken.hash, prefix: apiToken.prefix, scopes: ['read'] });
      const session = tokenFor(server, user);

      const asked = await api(server).post<DataExportRequestResponse>('/account/exports', {}, session);
      expect(asked.status).to.equal(202);
      // No SMTP here: the page, not the mailbox, is where the file appears.
      expect(asked.body.message).to.equal(PRIVACY_MESSAGES.exportRequested);
      expect(asked.body.export).to.include({ status: 'pending', size: null });
      const ready = await whenReady(session, asked.body.export.id);
      expect(ready.filename).to.match(/^aabify-meus-dados-\d{4}-\d{2}-\d{2}\.zip$/);

      const res = await download(server, session, ready.id);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/zip');
      expect(res.headers.get('content-disposition')).to.include(ready.filename);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).to.equal(ready.size);
      const files = await readZip(bytes);

      expect([...files.keys()]).to.include.members(['LEIA-ME.txt', 'conta.json', 'compras.json', 'conversoes.json', `logs-de-conversao/${conversion.id}.json`, 'emails.json', 'sessoes.json', 'tokens-de-api.json', 'chaves.json', 'atividade.json']);
      const account = JSON.parse(files.get('conta.json')!) as { profile: { email: string; name: string } };
      expect(account.profile).to.include({ email: user.email, name: 'Joana Exportação' });
      const purchases = JSON.parse(files.get('compras.json')!) as Array<{ id: string; status: string }>;
      expect(purchases.map((p) => [p.id, p.status])).to.deep.equal([[purchase.id, 'approved']]);
      const conversions = JSON.parse(files.get('conversoes.json')!) as Array<{ _id?: string; id?: string; fileName: string }>;
      expect(conversions.map((c) => c.fileName)).to.deep.equal(['meu app versão final.apk']);
      const logs = JSON.parse(files.get(`logs-de-conversao/${conversion.id}.json`)!) as Array<{ message: string }>;
      expect(logs.map((l) => l.message)).to.deep.equal(['Conversão concluída com sucesso']);
      const tokens = JSON.parse(files.get('tokens-de-api.json')!) as Array<{ name: string }>;
      expect(tokens.map((t) => t.name)).to.deep.equal(['CI do app']);
      const activity = JSON.parse(files.get('atividade.json')!) as Array<{ action: string }>;
      expect(activity.map((a) => a.action)).to.include('account.data_export_requested');

      // No secret anywhere: not the API token nor its hash, not the password hash, not the session's JWT.
      const everything = [...files.values()].join('\n');
      const stored = await server.ctx.models.User.findByPk(user.id);
      for (const secret of [apiToken.token, apiToken.hash, stored!.passwordHash, session]) expect(everything).to.not.include(secret);

      // The owner is told by e-mail (kept in the outbox here), with a link to the page, not to the file.
      const mails = await server.ctx.models.EmailMessage.findAll({ where: { userId: user.id, kind: 'data_export_ready' } });
      expect(mails).to.have.length(1);
      // The download is on the account's own record.
      const downloaded = await server.ctx.models.AuditEvent.count({ where: { accountId: user.id, action: 'account.data_export_downloaded' } });
      expect(downloaded).to.equal(1);
      // An API token neither asks nor lists: personal data leaves with a signed-in session only.
      expect((await api(server).post('/account/exports', {}, apiToken.token)).status).to.equal(403);
      expect((await api(server).get('/account/exports', apiToken.token)).status).to.equal(403);
    });

    it('anotherAccountsExport_isNotFound_andNeverListed', async () => {
      const owner = await buildCreditUser(server, 1);
      const stranger = await buildCreditUser(server, 1);
      const ready = await readyExport(tokenFor(server, owner));
      const theirs = await download(server, tokenFor(server, stranger), ready.id);
      expect(theirs.status).to.equal(404);
      expect(((await theirs.json()) as Err).code).to.equal('EXPORT_NOT_FOUND');
      const list = await api(server).get<DataExportListResponse>('/account/exports', tokenFor(server, stranger));
      expect(list.body.exports).to.deep.equal([]);
    });

    it('anExpiredExport_losesItsFile_andAnswers410', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const ready = await readyExport(token);
      const row = (await server.ctx.models.DataExport.findByPk(ready.id))!;
      const key = row.storageKey!;
      expect(await server.ctx.storage.size(key)).to.equal(ready.size);

      const afterKeeping = new Date(Date.now() + (DATA_EXPORT_LIMITS.keepDays * 24 + 1) * 3600_000);
      expect((await expireDataExports(server.ctx, afterKeeping)).expired).to.be.at.least(1);
      expect(await server.ctx.storage.size(key)).to.equal(undefined);
      const res = await download(server, token, ready.id);
      expect(res.status).to.equal(410);
      expect((await res.json()) as Err).to.deep.include({ code: 'EXPORT_EXPIRED', message: PRIVACY_MESSAGES.exportExpired });
    });

    it('deletingTheAccount_removesItsExportFiles', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const ready = await readyExport(token);
      const key = (await server.ctx.models.DataExport.findByPk(ready.id))!.storageKey!;
      expect((await api(server).request('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token })).status).to.equal(200);
      expect(await server.ctx.storage.size(key)).to.equal(undefined);
      expect(await server.ctx.models.DataExport.count({ where: { userId: user.id } })).to.equal(0);
    });
  });

  describe('on a web process (no job runs the export)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ ROLE: 'web' });
    });
    after(async () => {
      await server?.stop();
    });

    it('oneExportAtATime_andAtMostThreeADay', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const first = await api(server).post<DataExportRequestResponse>('/account/exports', {}, token);
      expect(first.status).to.equal(202);

      const again = await api(server).post<Err>('/account/exports', {}, token);
      expect(again.status).to.equal(409);
      expect(again.body).to.deep.include({ code: 'EXPORT_IN_PROGRESS', message: PRIVACY_MESSAGES.exportInProgress });
      const early = await download(server, token, first.body.export.id);
      expect(early.status).to.equal(409);
      expect(((await early.json()) as Err).code).to.equal('EXPORT_NOT_READY');

      // Each finished one frees the slot, up to the day's limit.
      for (let n = 1; n < DATA_EXPORT_LIMITS.perDay; n++) {
        await server.ctx.models.DataExport.update({ status: 'failed' }, { where: { userId: user.id } });
        expect((await api(server).post('/account/exports', {}, token)).status).to.equal(202);
      }
      await server.ctx.models.DataExport.update({ status: 'failed' }, { where: { userId: user.id } });
      const over = await api(server).post<Err>('/account/exports', {}, token);
      expect(over.status).to.equal(429);
      expect(over.body).to.deep.include({ code: 'EXPORT_LIMIT', message: PRIVACY_MESSAGES.exportLimit });
      expect(Number(over.headers.get('retry-after'))).to.be.within(1, 24 * 3600);
    });
  });
});
