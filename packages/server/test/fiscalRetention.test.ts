/**
 * The end of a deleted account's fiscal record: five years after a sale its billing details and
 * its nota fiscal's links go, the amount and dates stay; the account row's e-mail goes once the
 * account was deleted that long ago and no sale of it is younger. Living accounts keep all.
 */
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, TEST_BILLING } from './helpers/factories.js';
import { buildPlan, buildPurchase } from './helpers/adminFactories.js';
import { anonymousEmailOf, endExpiredFiscalRecords } from '../src/privacy/fiscalRetention.js';
import type { Purchase, User } from '../src/models/index.js';


const yearsAgo = (years: number, days = 0) => new Date(Date.now() - (years * 365.25 + days) * 86_400_000);

describe('fiscal record of deleted accounts (privacy:fiscal-retention)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
  });
  after(async () => {
    await server?.stop();
  });

  async function sale(user: User, approvedAt: Date): Promise<Purchase> {
    const purchase = await buildPurchase(server, user, await buildPlan(server), { status: 'approved', approvedAt, billingSnapshot: TEST_BILLING });
    await server.ctx.models.FiscalNote.create({
      purchaseId: purchase.id,
      userId: user.id,
      provider: 'focusnfe',
      reference: `ref-${purchase.id}`,
      status: 'autorizada',
      number: '123',
      pdfUrl: 'https://nfse.example.gov.br/nota.pdf',
      xmlUrl: 'https://nfse.example.gov.br/nota.xml',
    });
    return purchase;
  }

  async function deleted(user: User, at: Date): Promise<void> {
    await user.destroy();
    await server.ctx.sequelize.query('UPDATE users SET "deletedAt" = :at WHERE id = :id', { replacements: { at, id: user.id } });
  }

  const reload = async (p: Purchase) => {
    const purchase = await server.ctx.models.Purchase.findByPk(p.id);
    const note = await server.ctx.models.FiscalNote.findOne({ where: { purchaseId: p.id } });
    return { billing: purchase!.billingSnapshot, amount: purchase!.amountCents, status: purchase!.status, number: note!.number, pdf: note!.pdfUrl, xml: note!.xmlUrl };
  };
  const emailOf = async (u: User) => (await server.ctx.models.User.findByPk(u.id, { paranoid: false }))!.email;

  it('endExpiredFiscalRecords_deletedAccountsOldSalesLoseBillingAndLinks_youngSalesAndLivingAccountsKeepThem', async () => {
    // Deleted six years ago, one sale of seven years ago and one of four: the old one ends, the e-mail stays.
    const mixed = await buildCreditUser(server, 0);
    const oldSale = await sale(mixed, yearsAgo(7));
    const youngSale = await sale(mixed, yearsAgo(4));
    await deleted(mixed, yearsAgo(6));
    // Deleted six years ago, its only sale seven years ago: all ends, the e-mail too.
    const gone = await buildCreditUser(server, 0);
    const goneSale = await sale(gone, yearsAgo(7));
    await deleted(gone, yearsAgo(6));
    // Deleted last month, its only sale six years ago: the sale ends, the e-mail stays (deleted too recently).
    const recent = await buildCreditUser(server, 0);
    const recentSale = await sale(recent, yearsAgo(6));
    await deleted(recent, yearsAgo(0, 30));
    // A living account's sale of seven years ago: its receipt stays whole.
    const living = await buildCreditUser(server, 0);
    const livingSale = await sale(living, yearsAgo(7));
    // Deleted six years ago, its sale four years and 360 days ago: still inside the period.
    const edge = await buildCreditUser(server, 0);
    const edgeSale = await sale(edge, yearsAgo(5, -5));
    await deleted(edge, yearsAgo(6));

    const result = await endExpiredFiscalRecords(server.ctx);
    expect(result).to.deep.equal({ purchases: 3, notes: 3, accounts: 1 });

    for (const ended of [oldSale, goneSale, recentSale]) {
      expect(await reload(ended)).to.deep.equal({ billing: null, amount: ended.amountCents, status: 'approved', number: '123', pdf: null, xml: null });
    }
    for (const kept of [youngSale, livingSale, edgeSale]) {
      expect(await reload(kept)).to.deep.include({ billing: TEST_BILLING, pdf: 'https://nfse.example.gov.br/nota.pdf', xml: 'https://nfse.example.gov.br/nota.xml' });
    }
    expect(await emailOf(gone)).to.equal(anonymousEmailOf(gone.id));
    for (const kept of [mixed, recent, living, edge]) expect(await emailOf(kept)).to.equal(kept.email);

    const audit = await server.ctx.sequelize.query<{ details: Record<string, number> }>(`SELECT details FROM audit_events WHERE action = 'privacy.fiscal_records_ended' ORDER BY id DESC LIMIT 1`, { type: QueryTypes.SELECT });
    expect(audit[0]?.details).to.deep.include({ purchases: 3, notes: 3, accounts: 1, years: 5 });

    // A second run finds nothing more to end.
    expect(await endExpiredFiscalRecords(server.ctx)).to.deep.equal({ purchases: 0, notes: 0, accounts: 0 });
  });
});
