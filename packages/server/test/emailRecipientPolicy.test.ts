/**
 * Mail a stranger can cause is bounded per recipient, in the outbox (mail/recipientPolicy.ts):
 * registrations of a taken address, password resets and confirmation resends reach one mailbox
 * once per kind within its repeat window and at most PER_RECIPIENT_PER_HOUR times an hour for all
 * of them — read from a real SMTP server on loopback.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildUser, tokenFor, uniqueEmail } from './helpers/factories.js';
import { waitFor } from './helpers/conversions.js';
import { linkToken, startTestSmtp, type ReceivedMail, type TestSmtp } from './helpers/smtpServer.js';
import { PER_RECIPIENT_PER_HOUR } from '../src/mail/recipientPolicy.js';
import { issueEmailLink } from '../src/mail/links.js';
import type { User } from '../src/models/index.js';

describe('mail a stranger can cause is bounded per recipient', function () {
  this.timeout(60_000);
  let smtp: TestSmtp;
  let server: TestServer;

  before(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test' }, { mail: { retryDelayMs: 200, maxAttempts: 3 } });
  });
  after(async () => {
    await server?.stop();
    await smtp?.close();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  const mailTo = (address: string) => (m: ReceivedMail) => m.rcptTo.includes(address);
  const outboxOf = (address: string) => server.ctx.models.EmailMessage.findAll({ where: { to: address } });

  /** Every message queued for `address` delivered: what its mailbox received, in the end. */
  async function deliveredTo(address: string): Promise<ReceivedMail[]> {
    await waitFor(async () => ((await outboxOf(address)).every((m) => m.status === 'sent') ? true : undefined), 30_000, `mail to ${address} delivered`);
    return smtp.received.filter(mailTo(address));
  }

  // The notice of a sign-up with a taken address exists where sign-up hides that the address is
  // taken: where the operator requires a confirmed e-mail (elsewhere the answer says so, 409).
  describe('where confirmed e-mail is required', () => {
    before(() => server.ctx.settings.set('accounts.requireVerifiedEmail', true));
    after(() => server.ctx.settings.unset('accounts.requireVerifiedEmail'));

    it('register_twelveTimesWithATakenAddress_ownerReceivesOneNotice', async () => {
      const owner = await buildUser(server);
      for (let i = 0; i < 12; i++) {
        const res = await api(server).post('/auth/register', { acceptTerms: true, email: owner.email, password: `outra-senha-${i}` });
        // Every attempt answers like a new address: the cap tells the stranger nothing.
        expect(res.status).to.equal(201);
      }
      const received = await deliveredTo(owner.email);
      expect(received.length).to.be.at.most(PER_RECIPIENT_PER_HOUR);
      // The same news once: the repeat window of the kind.
      expect(received.map((m) => m.subject)).to.have.length(1);
      expect(received[0]!.subject).to.match(/tentou criar uma conta/);
    });

    it('register_twelveAtOnceWithATakenAddress_ownerReceivesOneNotice', async () => {
      const owner = await buildUser(server);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => api(server).post('/auth/register', { acceptTerms: true, email: owner.email, password: `outra-senha-${i}` })));
      expect(answers.map((a) => a.status)).to.deep.equal(Array<number>(12).fill(201));
      expect(await deliveredTo(owner.email)).to.have.length(1);
    });
  });

  it('forgotPassword_askedAgainAtOnce_oneMailWhoseLinkStillWorks', async () => {
    const user = await buildUser(server);
    for (let i = 0; i < 4; i++) expect((await api(server).post('/auth/forgot-password', { email: user.email })).status).to.equal(200);
    // The e-mail is prepared after the answer: wait for the four to be looked at.
    await waitFor(async () => ((await outboxOf(user.email)).length === 1 ? true : undefined), 10_000, 'the reset message');
    await new Promise((r) => setTimeout(r, 300));
    const received = await deliveredTo(user.email);
    expect(received).to.have.length(1);
    // The later requests did not revoke the link the mailbox holds.
    const reset = await api(server).post('/auth/reset-password', { token: linkToken(received[0]!, '/reset-password'), password: 'nova-senha-forte-9' });
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
  });

  it('resendVerification_fourTimesInARow_oneMessage', async () => {
    const stranger = await buildUser(server, { emailVerifiedAt: null });
    const token = tokenFor(server, stranger);
    for (let i = 0; i < 4; i++) expect((await api(server).post('/auth/resend-verification', undefined, token)).status).to.equal(200);
    expect(await deliveredTo(stranger.email)).to.have.length(1);
  });

  it('everyStrangerKind_togetherCappedPerRecipientPerHour_otherMailUnaffected', async () => {
    const user = await buildUser(server);
    const { outbox } = server.ctx.mail;
    const start = Date.now();
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    const reset = (u: User, minutes: number) =>
      outbox.enqueue({ kind: 'password_reset', to: u.email, userId: u.id, data: { name: null }, link: (transaction) => issueEmailLink(server.ctx.models, u, 'password_reset', { transaction }) }, at(minutes));
    const attempt = (u: User, minutes: number) => outbox.enqueue({ kind: 'registration_attempt', to: u.email, userId: u.id, data: {} }, at(minutes));

    const queued: Array<string | null> = [];
    queued.push(await attempt(user, 0));
    // Each reset past the kind's repeat window, until the hour's cap is reached.
    for (let minute = 3; minute <= 30; minute += 3) queued.push(await reset(user, minute));
    expect(queued.filter((id) => id !== null)).to.have.length(PER_RECIPIENT_PER_HOUR);
    // Mail the account's holder causes is not a stranger's: never capped.
    const changed = await outbox.enqueue({ kind: 'password_changed', to: user.email, userId: user.id, data: { name: null, at: at(31).toISOString() } }, at(31));
    expect(changed).to.be.a('string');
    // The cap is per address: another one is served; an hour after the first, this one is too.
    expect(await reset(await buildUser(server), 31)).to.be.a('string');
    expect(await reset(user, 61)).to.be.a('string');
    expect(await attempt(user, 62)).to.equal(null);
  });

  it('capApplies_whateverTheCaseOfTheAddress', async () => {
    const user = await buildUser(server, { email: uniqueEmail('caixa') });
    const { outbox } = server.ctx.mail;
    expect(await outbox.enqueue({ kind: 'registration_attempt', to: user.email, userId: user.id, data: {} })).to.be.a('string');
    expect(await outbox.enqueue({ kind: 'registration_attempt', to: user.email.toUpperCase(), userId: user.id, data: {} })).to.equal(null);
  });
});
