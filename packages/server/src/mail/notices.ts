/**
 * The product's e-mails, one method per trigger (docs/email.md lists them): each gathers what
 * its template needs and hands it to the outbox, which also holds the kinds a stranger can cause
 * to their per-recipient policy (mail/recipientPolicy.ts). Methods never throw: an e-mail that cannot be
 * queued is logged and the request or job that caused it goes on. Methods that take a
 * `transaction` write the message in it, so it exists exactly when that work commits.
 */
import { Op, type Sequelize, type Transaction } from 'sequelize';
import { EMAIL_PREFERENCE_OF_KIND, PAYMENT_METHOD_LABELS, isDeviceSet, type PaymentMethod } from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Conversion, Models, Payment, Purchase, User } from '../models/index.js';
import { issueEmailLink, LINK_VALIDITY_MS } from './links.js';
import { Outbox } from './outbox.js';

/** A conversion shorter than this ends without an e-mail: the user is still watching it. */
export const CONVERSION_NOTICE_AFTER_MS = 60_000;
/** The "plan expiring" notice goes out this long before a subscription ends. */
export const PLAN_EXPIRING_NOTICE_MS = 3 * 24 * 3600 * 1000;
/** Expired plans are looked at this far back (older ones never get a notice). */
const PLAN_EXPIRED_LOOKBACK_MS = 7 * 24 * 3600 * 1000;

/** Notices to administrators; each goes out at most once an hour per kind and admin. */
export const ADMIN_NOTICES = {
  payment_provider_failed: {
    title: 'Falha no provedor de pagamentos',
    intro: 'O Mercado Pago recusou ou não respondeu a uma chamada. Clientes podem não conseguir pagar até isso ser resolvido.',
    path: '/admin/settings',
  },
  payment_provider_unusable: {
    title: 'Provedor de pagamentos configurado não pode ser usado',
    intro: 'O provedor de pagamentos configurado não pode ser usado (credencial ilegível ou recusada). As compras estão sendo recusadas até a configuração ser corrigida.',
    path: '/admin/settings',
  },
} as const;
export type AdminNoticeKind = keyof typeof ADMIN_NOTICES;

type Tx = { transaction?: Transaction };

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Whether the account wants an optional kind of e-mail (its switch in Conta › Perfil). */
export function wantsEmail(user: Pick<User, 'notifyConversions' | 'notifyConversionFailures' | 'notifyProductNews'>, kind: keyof typeof EMAIL_PREFERENCE_OF_KIND): boolean {
  return user[EMAIL_PREFERENCE_OF_KIND[kind]];
}
const methodLabel = (method: PaymentMethod): string => PAYMENT_METHOD_LABELS[method];

export class Mailer {
  constructor(
    private readonly deps: { models: Models; sequelize: Sequelize; logger: Logger },
    readonly outbox: Outbox,
  ) {}

  /** After register: welcome, with the address-confirmation link. */
  async welcome(user: User, opts: Tx = {}): Promise<void> {
    await this.addressConfirmation('welcome', user, opts);
  }

  /** "Reenviar e-mail": a new confirmation link (older ones stop working). */
  async verification(user: User): Promise<void> {
    await this.addressConfirmation('verify_email', user);
  }

  /** A message with the link that confirms the address (a new one: older links stop working). */
  private async addressConfirmation(kind: 'welcome' | 'verify_email', user: User, opts: Tx = {}): Promise<void> {
    await this.guard(kind, () =>
      this.outbox.enqueue({
        kind,
        to: user.email,
        userId: user.id,
        // No name: whoever typed it may not own this mailbox (the address is not confirmed),
        // and a name is free text a stranger could fill with a phishing line sent from our domain.
        data: { name: null, validHours: LINK_VALIDITY_MS.email_verification / 3600_000 },
        link: (transaction) => issueEmailLink(this.deps.models, user, 'email_verification', { transaction }),
        transaction: opts.transaction,
      }),
    );
  }

  /** Register with a taken address: the owner learns of it; the stranger learns nothing. */
  async registrationAttempt(email: string): Promise<void> {
    await this.guard('registration_attempt', async () => {
      const owner = await this.deps.models.User.findOne({ where: { email } });
      if (!owner) return;
      await this.outbox.enqueue({ kind: 'registration_attempt', to: owner.email, userId: owner.id, data: {} });
    });
  }

  /** "Esqueci minha senha": a reset link when the account exists and is active; nothing otherwise. */
  async passwordReset(email: string): Promise<void> {
    await this.guard('password_reset', async () => {
      const user = await this.deps.models.User.findOne({ where: { email } });
      if (!user || !user.isActive) return;
      await this.outbox.enqueue({
        kind: 'password_reset',
        to: user.email,
        userId: user.id,
        data: { name: user.name },
        link: (transaction) => issueEmailLink(this.deps.models, user, 'password_reset', { transaction }),
      });
    });
  }

  async passwordChanged(user: User, opts: Tx = {}): Promise<void> {
    await this.guard('password_changed', () =>
      this.outbox.enqueue({ kind: 'password_changed', to: user.email, userId: user.id, data: { name: user.name, at: new Date().toISOString() }, transaction: opts.transaction }),
    );
  }

  /** The receipt, written in the approval's transaction (once per purchase). */
  async purchaseApproved(purchase: Purchase, user: User, opts: Tx = {}): Promise<void> {
    await this.guard('purchase_approved', async () => {
      const payment = await this.paymentOf(purchase, opts.transaction);
      const grant = purchase.planGrant;
      const included =
        grant?.type === 'credit'
          ? `${grant.creditsAdded} ${grant.creditsAdded === 1 ? 'crédito' : 'créditos'}`
          : grant?.newExpiresAt
            ? `Assinatura até ${new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: 'America/Sao_Paulo' }).format(new Date(grant.newExpiresAt))}`
            : null;
      await this.outbox.enqueue({
        kind: 'purchase_approved',
        to: user.email,
        userId: user.id,
        data: {
          planName: purchase.planSnapshot.name,
          amountCents: purchase.amountCents,
          currency: purchase.currency,
          approvedAt: iso(purchase.approvedAt) ?? new Date().toISOString(),
          paymentId: payment?.providerPaymentId ?? payment?.id ?? purchase.id,
          purchaseId: purchase.id,
          method: methodLabel(payment?.method ?? purchase.method ?? 'pix'),
          grant: included,
        },
        dedupeKey: `purchase-approved:${purchase.id}`,
        transaction: opts.transaction,
      });
    });
  }

  async purchaseRefunded(purchase: Purchase, user: User, opts: Tx = {}): Promise<void> {
    await this.guard('purchase_refunded', async () => {
      const payment = await this.paymentOf(purchase, opts.transaction);
      await this.outbox.enqueue({
        kind: 'purchase_refunded',
        to: user.email,
        userId: user.id,
        data: {
          planName: purchase.planSnapshot.name,
          amountCents: purchase.amountCents,
          currency: purchase.currency,
          refundedAt: iso(purchase.refundedAt) ?? new Date().toISOString(),
          paymentId: payment?.providerPaymentId ?? payment?.id ?? purchase.id,
          reason: purchase.refundReason,
        },
        dedupeKey: `purchase-refunded:${purchase.id}`,
        transaction: opts.transaction,
      });
    });
  }

  /** A PIX charge that expired unpaid (the payments:expire job). */
  async pixExpired(payment: Payment): Promise<void> {
    await this.guard('pix_expired', async () => {
      const [user, purchase] = await Promise.all([
        this.deps.models.User.findByPk(payment.userId),
        this.deps.models.Purchase.findByPk(payment.purchaseId),
      ]);
      if (!user || !purchase) return;
      await this.outbox.enqueue({
        kind: 'pix_expired',
        to: user.email,
        userId: user.id,
        data: { planName: purchase.planSnapshot.name, amountCents: payment.amountCents, currency: payment.currency, expiresAt: iso(payment.expiresAt) },
        dedupeKey: `pix-expired:${payment.id}`,
      });
    });
  }

  /** A renewal charge the card refused (once per charge): the paid period stays; the provider retries. */
  async renewalFailed(purchase: Purchase, opts: Tx = {}): Promise<void> {
    await this.guard('renewal_failed', async () => {
      const user = await this.deps.models.User.findByPk(purchase.userId, { transaction: opts.transaction });
      if (!user) return;
      await this.outbox.enqueue({
        kind: 'renewal_failed',
        to: user.email,
        userId: user.id,
        data: {
          planName: purchase.planSnapshot.name,
          amountCents: purchase.amountCents,
          currency: purchase.currency,
          expiresAt: user.subscriptionExpiresAt && user.subscriptionExpiresAt.getTime() > Date.now() ? user.subscriptionExpiresAt.toISOString() : null,
        },
        dedupeKey: `renewal-failed:${purchase.id}`,
        transaction: opts.transaction,
      });
    });
  }

  /**
   * The daily plan notices: subscriptions ending within 3 days, and those that ended. Each goes
   * out once per plan period — the period is its expiry instant, recorded in the dedupe key.
   */
  async planNotices(now: Date = new Date()): Promise<{ expiring: number; expired: number }> {
    const { User } = this.deps.models;
    const counts = { expiring: 0, expired: 0 };
    const base = { userType: 'subscription', isActive: true, role: 'user' } as const;
    const expiring = await User.findAll({
      where: { ...base, subscriptionExpiresAt: { [Op.gt]: now, [Op.lte]: new Date(now.getTime() + PLAN_EXPIRING_NOTICE_MS) } },
    });
    const expired = await User.findAll({
      where: { ...base, subscriptionExpiresAt: { [Op.lte]: now, [Op.gt]: new Date(now.getTime() - PLAN_EXPIRED_LOOKBACK_MS) } },
    });
    for (const [users, kind] of [[expiring, 'plan_expiring'], [expired, 'plan_expired']] as const) {
      for (const user of users) {
        const expiresAt = user.subscriptionExpiresAt!;
        const planName = await this.planName(user);
        const id = await this.guard(kind, () =>
          this.outbox.enqueue({
            kind,
            to: user.email,
            userId: user.id,
            data: { planName, expiresAt: expiresAt.toISOString() },
            dedupeKey: `${kind}:${user.id}:${expiresAt.toISOString()}`,
          }),
        );
        if (id) counts[kind === 'plan_expiring' ? 'expiring' : 'expired']++;
      }
    }
    return counts;
  }

  /** A credit user's free balance just went down to 1 (once per purchase). */
  async creditsLow(user: User, opts: Tx = {}): Promise<void> {
    await this.guard('credits_low', () =>
      this.outbox.enqueue({
        kind: 'credits_low',
        to: user.email,
        userId: user.id,
        data: {},
        dedupeKey: `credits-low:${user.id}:${user.currentPurchaseId ?? 'none'}`,
        transaction: opts.transaction,
      }),
    );
  }

  /**
   * Conta › Perfil's new address: a link to it (the account's address changes only when it is
   * followed), and the current address told. Written in the request's transaction.
   */
  async emailChangeRequested(user: User, newEmail: string, opts: Tx = {}): Promise<void> {
    await this.guard('email_change_confirm', () =>
      this.outbox.enqueue({
        kind: 'email_change_confirm',
        to: newEmail,
        userId: user.id,
        data: { validHours: LINK_VALIDITY_MS.email_change / 3600_000 },
        link: (transaction) => issueEmailLink(this.deps.models, { id: user.id, email: newEmail }, 'email_change', { transaction }),
        transaction: opts.transaction,
      }),
    );
    await this.emailChangeNotice(user, user.email, newEmail, false, opts);
  }

  /** The account's old address learns of a change of address: asked (`applied` false) or made. */
  async emailChangeNotice(user: User, oldEmail: string, newEmail: string, applied: boolean, opts: Tx = {}): Promise<void> {
    await this.guard('email_change_notice', () =>
      this.outbox.enqueue({
        kind: 'email_change_notice',
        to: oldEmail,
        userId: user.id,
        data: { name: user.name, newEmail, applied, at: new Date().toISOString() },
        transaction: opts.transaction,
      }),
    );
  }

  /** Product news (no marketing): only to accounts that asked for it. */
  async productNews(user: User, news: { title: string; paragraphs: string[] }, opts: Tx = {}): Promise<void> {
    if (!wantsEmail(user, 'product_news')) return;
    await this.guard('product_news', () =>
      this.outbox.enqueue({ kind: 'product_news', to: user.email, userId: user.id, data: { title: news.title, paragraphs: news.paragraphs }, transaction: opts.transaction }),
    );
  }

  /** A conversion ended (completed or failed) after more than a minute, unless its owner opted out of that kind. */
  async conversionEnded(conversion: Conversion, opts: Tx = {}): Promise<void> {
    if (conversion.status !== 'completed' && conversion.status !== 'failed') return;
    const ended = conversion.completedAt ?? new Date();
    const durationMs = ended.getTime() - conversion.createdAt.getTime();
    if (durationMs <= CONVERSION_NOTICE_AFTER_MS) return;
    await this.guard('conversion_ended', async () => {
      const user = await this.deps.models.User.findByPk(conversion.userId, { transaction: opts.transaction });
      const kind = conversion.status === 'completed' ? 'conversion_finished' : 'conversion_failed';
      if (!user || !wantsEmail(user, kind)) return;
      await this.outbox.enqueue({
        kind,
        to: user.email,
        userId: user.id,
        data: { fileName: conversion.fileName, kind: conversion.kind, output: isDeviceSet(conversion.options) ? 'device-set' : 'universal', conversionId: conversion.id, durationSeconds: Math.round(durationMs / 1000), error: conversion.error },
        dedupeKey: `conversion-ended:${conversion.id}`,
        transaction: opts.transaction,
      });
    });
  }

  async apiTokenCreated(user: User, token: { name: string; prefix: string; scopes: readonly string[]; createdAt: Date }): Promise<void> {
    await this.guard('api_token_created', () =>
      this.outbox.enqueue({
        kind: 'api_token_created',
        to: user.email,
        userId: user.id,
        data: { name: user.name, tokenName: token.name, prefix: token.prefix, scopes: [...token.scopes], createdAt: token.createdAt.toISOString() },
      }),
    );
  }

  /**
   * A sign-in from a device or address the account had not used: the owner can end it. One per
   * device and day at most (the dedupe key), whatever the addresses: a stranger holding the
   * password cannot flood the mailbox by signing in again and again.
   */
  async newSignIn(user: User, signIn: { device: string; deviceKey: string; address: string | null; at: Date }): Promise<void> {
    await this.guard('new_sign_in', () =>
      this.outbox.enqueue({
        kind: 'new_sign_in',
        to: user.email,
        userId: user.id,
        data: { name: user.name, device: signIn.device, address: signIn.address, at: signIn.at.toISOString() },
        dedupeKey: `new-sign-in:${user.id}:${signIn.deviceKey}:${signIn.at.toISOString().slice(0, 10)}`,
      }),
    );
  }

  /** Two-factor sign-in turned on or off. */
  async twoFactorChanged(user: User, enabled: boolean): Promise<void> {
    await this.guard('two_factor_changed', () =>
      this.outbox.enqueue({ kind: 'two_factor_changed', to: user.email, userId: user.id, data: { name: user.name, enabled, at: new Date().toISOString() } }),
    );
  }

  /** The account's data export is ready (Conta › Meus dados); the link opens the page, not the file. */
  async dataExportReady(user: User, dataExport: { id: string; requestedAt: Date; expiresAt: Date }): Promise<void> {
    await this.guard('data_export_ready', () =>
      this.outbox.enqueue({
        kind: 'data_export_ready',
        to: user.email,
        userId: user.id,
        data: { name: user.name, requestedAt: dataExport.requestedAt.toISOString(), expiresAt: dataExport.expiresAt.toISOString() },
        dedupeKey: `data-export-ready:${dataExport.id}`,
      }),
    );
  }

  /**
   * Tells every active administrator about an operational problem (`details` are label →
   * value rows, never secrets). At most once an hour per kind and admin.
   */
  async notifyAdmins(kind: AdminNoticeKind, details: Record<string, string | number> = {}, now: Date = new Date()): Promise<void> {
    await this.guard('admin_notice', async () => {
      const notice = ADMIN_NOTICES[kind];
      const admins = await this.deps.models.User.findAll({ where: { role: 'admin', isActive: true } });
      const hour = now.toISOString().slice(0, 13);
      for (const admin of admins) {
        await this.outbox.enqueue({
          kind: 'admin_notice',
          to: admin.email,
          userId: admin.id,
          data: { notice: kind, title: notice.title, intro: notice.intro, path: notice.path, details: Object.entries(details).map(([k, v]) => [k, String(v)]) },
          dedupeKey: `admin-notice:${kind}:${admin.id}:${hour}`,
        });
      }
    });
  }

  private async paymentOf(purchase: Purchase, transaction?: Transaction): Promise<Payment | null> {
    return this.deps.models.Payment.findOne({ where: { purchaseId: purchase.id }, order: [['createdAt', 'DESC']], transaction });
  }

  private async planName(user: User): Promise<string> {
    const purchase = user.currentPurchaseId ? await this.deps.models.Purchase.findByPk(user.currentPurchaseId) : null;
    if (purchase) return purchase.planSnapshot.name;
    const plan = user.subscriptionPlanId ? await this.deps.models.Plan.findByPk(user.subscriptionPlanId) : null;
    return plan?.name ?? 'de assinatura';
  }

  /** Runs a notice; a failure is logged, never thrown to the caller. */
  private async guard<T>(what: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (err) {
      this.deps.logger.error({ err, email: what }, 'e-mail not queued');
      return undefined;
    }
  }
}
