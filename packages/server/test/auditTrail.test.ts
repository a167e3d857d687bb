/**
 * The audit trail itself: only admins read it; no route changes or deletes an event and the
 * database refuses an UPDATE, DELETE or TRUNCATE outright; retention removes only events older
 * than its setting; Admin › Auditoria's filters; the CSV export neutralises formulas and quotes
 * and is bounded; a customer reads only their own account's security events.
 */
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { AUDIT_EXPORT_TRUNCATED_HEADER, AUDIT_LIMITS, type AccountActivityResponse, type AuditEventDetail, type AuditEventListResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { waitFor } from './helpers/conversions.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';
import { auditEvent, auditEvents } from './helpers/audit.js';
import { purgeExpiredAuditEvents } from '../src/audit/retention.js';
import { JOBS } from '../src/jobs/names.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string; fields?: Record<string, string> };

/** Cells of a `;` CSV as a spreadsheet reads them (quoted cells, doubled quotes, CRLF lines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('audit trail: reading, immutability, retention and export', function () {
  this.timeout(120_000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const http = () => api(server);
  const sql = (text: string, replacements: Record<string, unknown> = {}) => server.ctx.sequelize.query(text, { replacements });

  before(async () => {
    server = await startTestServer();
    admin = await buildAdmin(server, { email: 'auditora@example.com' });
    adminToken = tokenFor(server, admin);
  });
  beforeEach(() => server.ctx.rateLimits.reset());
  after(async () => {
    await server?.stop();
  });

  /** An event of the trail made through the API: an admin changing a customer's credits. */
  async function someEvent(): Promise<AuditEventDetail> {
    const customer = await buildCreditUser(server, 1);
    expect((await http().patch(`/admin/users/${customer.id}/credits`, { credits: 2, operation: 'set' }, adminToken)).status).to.equal(200);
    return auditEvent(server, adminToken, 'user.credits_changed', customer.id);
  }

  /** An event written straight to the table `days` ago (only INSERT is allowed there). */
  async function eventAged(days: number, action = 'plan.created'): Promise<string> {
    const [rows] = await sql(`INSERT INTO audit_events (at, action, "targetType", "targetLabel") VALUES (now() - make_interval(days => :days), :action, 'plan', 'antigo') RETURNING id`, { days, action });
    return String((rows as Array<{ id: string }>)[0]!.id);
  }
  const exists = async (id: string) => (await server.ctx.models.AuditEvent.count({ where: { id } })) === 1;

  /** GET /admin/audit/export as bytes (a text decoder would drop the BOM): its headers, whether it starts with the BOM, and its text. */
  async function exportCsv(query: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/api/admin/audit/export?${query}`, { headers: { authorization: `Bearer ${adminToken}`, ...headers } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const bom = bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
    return { status: res.status, headers: res.headers, bom, text: bytes.subarray(bom ? 3 : 0).toString('utf8') };
  }

  describe('who reads it', () => {
    it('adminRoutes_withoutTokenOrAsCustomer_401And403', async () => {
      const customer = tokenFor(server, await buildUser(server));
      for (const path of ['/admin/audit', '/admin/audit/export', '/admin/audit/1']) {
        expect((await http().get(path)).status, path).to.equal(401);
        expect((await http().get<Err>(path, customer)).body.code, path).to.equal('ADMIN_REQUIRED');
      }
    });

    it('accountActivity_customer_seesOnlyTheirOwnSecurityEvents', async () => {
      const alice = await buildCreditUser(server, 5);
      const bob = await buildCreditUser(server, 5);
      for (const u of [alice, bob]) expect((await http().post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD })).status).to.equal(200);
      expect((await http().post('/auth/login', { email: alice.email, password: 'errada-123456' })).status).to.equal(401);
      // Admin-only events of Bob's account (credits) are not part of his security log.
      expect((await http().patch(`/admin/users/${bob.id}/credits`, { credits: 9, operation: 'set' }, adminToken)).status).to.equal(200);

      const bobToken = tokenFor(server, bob);
      const mine = await http().get<AccountActivityResponse>(`/account/activity?accountId=${alice.id}&limit=100`, bobToken);
      expect(mine.status).to.equal(200);
      expect(mine.body.events.map((e) => e.action)).to.deep.equal(['auth.sign_in']);
      const ids = new Set(mine.body.events.map((e) => e.id));
      const alices = await http().get<AccountActivityResponse>('/account/activity', tokenFor(server, alice));
      expect(alices.body.events.map((e) => e.action)).to.deep.equal(['auth.sign_in_failed', 'auth.sign_in']);
      for (const e of alices.body.events) expect(ids.has(e.id)).to.equal(false);
    });
  });

  describe('append-only', () => {
    it('routes_noMethodChangesOrDeletesAnEvent_andTheEventStaysAsItWas', async () => {
      const event = await someEvent();
      for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
        const res = await http().request<Err>(method, `/admin/audit/${event.id}`, { action: 'nada' }, { token: adminToken });
        expect(res.status, method).to.equal(404);
        expect(res.body.code).to.equal('ROUTE_NOT_FOUND');
      }
      expect((await http().request<Err>('DELETE', '/admin/audit', undefined, { token: adminToken })).status).to.equal(404);
      expect((await http().get<AuditEventDetail>(`/admin/audit/${event.id}`, adminToken)).body).to.deep.equal(event);
    });

    it('database_updateDeleteTruncate_refused', async () => {
      const event = await someEvent();
      for (const statement of [
        `UPDATE audit_events SET action = 'forjado' WHERE id = ${event.id}`,
        `DELETE FROM audit_events WHERE id = ${event.id}`,
        'TRUNCATE audit_events',
      ]) {
        let error: unknown;
        await sql(statement).catch((e: unknown) => (error = e));
        expect(String(error), statement).to.match(/audit_events is append-only/);
      }
      expect(await exists(event.id)).to.equal(true);
    });

    it('database_retentionPathWithAYoungEventOrTooShortAPeriod_refused', async () => {
      const young = await eventAged(10);
      const old = await eventAged(400);
      const tries: Array<[string, string]> = [
        ['30', young], // inside the period
        ['1', old], // a period under the minimum deletes nothing
      ];
      for (const [days, id] of tries) {
        let error: unknown;
        await server.ctx.sequelize
          .transaction(async (transaction) => {
            await server.ctx.sequelize.query("SELECT set_config('aabify.audit_retention_days', :days, true)", { replacements: { days }, transaction, type: QueryTypes.SELECT });
            await server.ctx.sequelize.query('DELETE FROM audit_events WHERE id = :id', { replacements: { id }, transaction });
          })
          .catch((e: unknown) => (error = e));
        expect(String(error), `${days} days`).to.match(/append-only/);
        expect(await exists(id)).to.equal(true);
      }
    });
  });

  describe('retention', () => {
    it('retention_setting30Days_removesOnlyOlderEventsAndRecordsIt', async () => {
      expect((await http().put('/admin/config/audit.retentionDays', { value: 30 }, adminToken)).status).to.equal(200);
      expect((await http().put<Err>('/admin/config/audit.retentionDays', { value: 7 }, adminToken)).status).to.equal(400);
      const old = await eventAged(31);
      const young = await eventAged(29);
      const recent = await someEvent();
      const deleted = await purgeExpiredAuditEvents(server.ctx);
      expect(deleted).to.be.at.least(1);
      expect(await exists(old)).to.equal(false);
      expect(await exists(young)).to.equal(true);
      expect(await exists(recent.id)).to.equal(true);
      const purged = await auditEvent(server, adminToken, 'audit.purged');
      expect(purged.actor).to.deep.equal({ id: null, email: null, role: null });
      expect(purged.details).to.deep.equal({ deleted, olderThanDays: 30 });
    });

    it('retentionJob_scheduledAsRecurring', async () => {
      const rows = await waitFor(async () => {
        const found = await server.ctx.sequelize.query<{ name: string }>('SELECT name FROM agenda_jobs WHERE name = :name', { replacements: { name: JOBS.auditRetention }, type: QueryTypes.SELECT });
        return found.length ? found : undefined;
      }, 10_000, 'the audit:retention job');
      expect(rows).to.have.length(1);
    });
  });

  describe('Admin › Auditoria', () => {
    it('list_filtersByActorActionTargetAddressAndDates', async () => {
      const event = await someEvent();
      const list = async (query: string) => {
        const res = await http().get<AuditEventListResponse>(`/admin/audit?${query}`, adminToken);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.events;
      };
      const hasIt = (events: AuditEventListResponse['events']) => events.some((e) => e.id === event.id);
      expect(hasIt(await list('actor=auditora@'))).to.equal(true);
      expect(hasIt(await list(`actor=${admin.id}`))).to.equal(true);
      expect(hasIt(await list('actor=outra-pessoa'))).to.equal(false);
      expect(hasIt(await list('action=user.credits_changed&targetType=user'))).to.equal(true);
      expect(hasIt(await list('action=user.role_changed'))).to.equal(false);
      expect(hasIt(await list(`target=${event.target!.id}`))).to.equal(true);
      expect(hasIt(await list(`target=${encodeURIComponent(event.target!.label!.slice(0, 8))}`))).to.equal(true);
      expect(hasIt(await list('address=127.0.0'))).to.equal(true);
      expect(hasIt(await list('address=203.0.113.'))).to.equal(false);
      const at = Date.parse(event.at);
      expect(hasIt(await list(`from=${new Date(at - 60_000).toISOString()}&to=${new Date(at + 60_000).toISOString()}`))).to.equal(true);
      expect(hasIt(await list(`from=${new Date(at + 60_000).toISOString()}`))).to.equal(false);
      const page = await http().get<AuditEventListResponse>('/admin/audit?limit=1&page=2', adminToken);
      expect(page.body.events).to.have.length(1);
      expect(page.body.pagination).to.include({ page: 2, limit: 1 });
    });

    it('list_invalidFilters_400InPortuguese', async () => {
      const action = await http().get<Err>('/admin/audit?action=tudo.apagado', adminToken);
      expect([action.status, action.body.fields?.action]).to.deep.equal([400, 'Ação desconhecida']);
      const range = await http().get<Err>('/admin/audit?from=2025-02-01&to=2025-01-01', adminToken);
      expect([range.status, range.body.fields?.to]).to.deep.equal([400, 'A data final deve ser igual ou posterior à inicial']);
      expect((await http().get<Err>('/admin/audit/abc', adminToken)).body.code).to.equal('AUDIT_EVENT_NOT_FOUND');
    });

    it('export_hostileValues_formulasNeutralisedAndQuotesEscaped', async () => {
      const hostile = ['=HYPERLINK("http://x.test";"clique")', '+1+1', '-2+3', '@SUM(A1:A9)'];
      for (const name of hostile) {
        const res = await http().post('/admin/plans', { name, description: 'x', type: 'credit', price: 1, currency: 'BRL', credits: 1, features: [], isPopular: false, isActive: true }, adminToken);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      }
      const res = await exportCsv('action=plan.created', { 'user-agent': '=cmd|" /C calc"!A0' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('text/csv');
      expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(res.headers.get(AUDIT_EXPORT_TRUNCATED_HEADER)).to.equal(null);
      expect(res.bom).to.equal(true);
      const rows = parseCsv(res.text);
      expect(rows[0]!.slice(0, 4)).to.deep.equal(['Quando (horário de Brasília)', 'Ação', 'Código', 'Quem']);
      const labels = rows.slice(1).map((r) => r[rows[0]!.indexOf('Nome do alvo')]);
      for (const name of hostile) expect(labels).to.include(`'${name}`);
      expect(rows.slice(1).every((r) => r[2] === 'plan.created' && r.length === rows[0]!.length)).to.equal(true);
      // The raw text: the quoted cell's own quotes doubled, nothing starts a cell with a formula character.
      expect(res.text).to.contain(`"'=HYPERLINK(""http://x.test"";""clique"")"`);
      for (const cells of rows) for (const cell of cells) expect(cell, cell).to.not.match(/^[=+\-@]/);

      const exported = await auditEvent(server, adminToken, 'audit.exported');
      expect(exported.actor.id).to.equal(admin.id);
      expect(exported.userAgent).to.equal('=cmd|" /C calc"!A0');
      expect(exported.details).to.deep.equal({ filter: { action: 'plan.created' } });
      const again = await exportCsv('action=audit.exported');
      for (const cells of parseCsv(again.text)) for (const cell of cells) expect(cell, cell).to.not.match(/^[=+\-@]/);
    });

    it('export_moreThanTheBound_newestRowsOnlyAndSaysSo', async () => {
      const max = AUDIT_LIMITS.exportMaxRows;
      await sql(`INSERT INTO audit_events (action, "targetType", "targetLabel") SELECT 'queue.cleared', 'queue', 'lote ' || n FROM generate_series(1, :count) n`, { count: max + 1 });
      const res = await exportCsv('action=queue.cleared');
      expect(res.status).to.equal(200);
      expect(res.headers.get(AUDIT_EXPORT_TRUNCATED_HEADER)).to.equal('true');
      const lines = res.text.split('\r\n').filter(Boolean);
      expect(lines).to.have.length(max + 1);
      // Newest first: the last row inserted comes first, the very first one is left out.
      expect(lines[1]).to.contain(`lote ${max + 1}`);
      expect(res.text).to.not.contain(';lote 1;');
      expect((await auditEvents(server, adminToken, 'audit.exported')).length).to.be.at.least(1);
    });
  });
});
