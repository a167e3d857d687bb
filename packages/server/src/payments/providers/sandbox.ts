/**
 * The sandbox provider: what a real provider keeps, in our own tables, with nothing real paid.
 * - PIX: real-looking charges (valid BR Code with CRC, QR PNG) in sandbox_charges, which nobody
 *   can pay; approved by an admin (POST /admin/payments/{id}/approve) or by the buyer with
 *   simulate-approval.
 * - Hosted checkouts (card, boleto) and automatic renewals: sandbox_checkouts, paid on the
 *   dashboard's own page /sandbox/checkout/{id} (approve, reject or leave pending a card, issue a
 *   boleto; authorize a renewal); later renewal charges are simulated on demand.
 * Only while nothing configures a real provider (gateway.ts).
 */
import { isUuid, type PaymentMethod } from '@aabify/shared';
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Models, SandboxCharge, SandboxCheckout, SandboxCheckoutStatus } from '../../models/index.js';
import { buildPixBrCode } from './brcode.js';
import { qrPngBase64 } from '../../http/qrCodes.js';
import {
  PaymentProviderError,
  type CreateCheckoutInput,
  type CreatePixInput,
  type CreateRenewalInput,
  type PaymentProvider,
  type ProviderPayment,
  type ProviderRenewal,
} from './provider.js';

/** What the payer does on the sandbox checkout page. */
export type SandboxOutcome = 'approved' | 'rejected' | 'pending';

/** Days a sandbox boleto can be paid (a real one is usually due in about three days). */
export const SANDBOX_BOLETO_DAYS = 3;

/** A fixed random-key (EVP) for the sandbox merchant; no bank knows it. */
export const SANDBOX_PIX_KEY = '7d9f0c3e-5b1a-4e2c-9f8d-aab1f7000000';
export const SANDBOX_MERCHANT = { name: 'AABIFY SANDBOX', city: 'SAO PAULO' } as const;

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** Marks a charge paid. Late approval of an expired or cancelled charge only with allowLate. */
  approve(id: string, opts?: { allowLate?: boolean }): Promise<ProviderPayment>;
  reject(id: string): Promise<ProviderPayment>;
  /** A checkout as its page shows it. */
  checkout(id: string): Promise<SandboxCheckout>;
  /** The payer pays on a checkout page: a card (approved, rejected or left in review) or a boleto (pending until paid). */
  payCheckout(id: string, input: { method: 'card' | 'boleto'; outcome: SandboxOutcome; installments: number }): Promise<ProviderPayment>;
  /** The payer authorizes a renewal on its page; its first charge is approved or rejected. */
  authorizeRenewal(id: string, outcome: 'approved' | 'rejected'): Promise<ProviderPayment>;
  /** A simulated period charge of an authorized renewal. */
  chargeRenewal(id: string, outcome: 'approved' | 'rejected'): Promise<ProviderPayment>;
}

const STATUS_DETAILS: Record<SandboxOutcome, string> = { approved: 'accredited', rejected: 'cc_rejected_other_reason', pending: 'pending_review_manual' };

function toProviderPayment(charge: SandboxCharge, qrCodeBase64: string | null, checkout?: SandboxCheckout | null): ProviderPayment {
  return {
    id: charge.id,
    status: charge.status,
    rawStatus: charge.status,
    statusDetail: charge.statusDetail,
    amountCents: charge.amountCents,
    currency: charge.currency,
    externalReference: charge.externalReference,
    qrCode: charge.qrCode,
    qrCodeBase64,
    ticketUrl: null,
    expiresAt: charge.expiresAt,
    approvedAt: charge.approvedAt,
    method: charge.method,
    installments: charge.installments,
    renewalId: checkout?.kind === 'renewal' ? checkout.id : null,
  };
}

const RENEWAL_STATUS = { open: 'pending', completed: 'active', authorized: 'active', cancelled: 'cancelled' } as const;

function toProviderRenewal(checkout: SandboxCheckout): ProviderRenewal {
  const status: SandboxCheckoutStatus = checkout.status;
  return {
    id: checkout.id,
    status: RENEWAL_STATUS[status],
    rawStatus: checkout.status,
    url: checkoutPagePath(checkout.id),
    externalReference: checkout.externalReference,
    amountCents: checkout.amountCents,
    currency: checkout.currency,
  };
}

/** The dashboard's page of a sandbox checkout. */
export function checkoutPagePath(id: string): string {
  return `/sandbox/checkout/${id}`;
}

export function createSandboxProvider(models: Pick<Models, 'SandboxCharge' | 'SandboxCheckout'>): SandboxProvider {
  const { SandboxCharge, SandboxCheckout } = models;

  async function findCheckout(id: string, kind?: SandboxCheckout['kind'], transaction?: Transaction): Promise<SandboxCheckout> {
    const checkout = isUuid(id) ? await SandboxCheckout.findByPk(id, transaction ? { transaction, lock: transaction.LOCK.NO_KEY_UPDATE } : {}) : null;
    if (!checkout || (kind && checkout.kind !== kind)) throw new PaymentProviderError('not_found', `sandbox checkout ${id} not found`, { httpStatus: 404 });
    return checkout;
  }

  async function chargeOn(
    checkout: SandboxCheckout,
    method: PaymentMethod,
    outcome: SandboxOutcome,
    installments: number,
    transaction: Transaction,
  ): Promise<ProviderPayment> {
    const boleto = method === 'boleto';
    const charge = await SandboxCharge.create(
      {
        idempotencyKey: `sandbox-charge-${randomUUID()}`,
        checkoutId: checkout.id,
        method,
        currency: checkout.currency,
        installments: boleto ? null : installments,
        status: boleto ? 'pending' : outcome,
        statusDetail: boleto ? 'pending_waiting_payment' : STATUS_DETAILS[outcome],
        amountCents: checkout.amountCents,
        description: checkout.description,
        payerEmail: checkout.payerEmail,
        externalReference: checkout.externalReference,
        expiresAt: boleto ? new Date(Date.now() + SANDBOX_BOLETO_DAYS * 86400_000) : null,
        approvedAt: !boleto && outcome === 'approved' ? new Date() : null,
      },
      { transaction },
    );
    return toProviderPayment(charge, null, checkout);
  }

  async function find(id: string): Promise<SandboxCharge> {
    const charge = isUuid(id) ? await SandboxCharge.findByPk(id) : null;
    if (!charge) throw new PaymentProviderError('not_found', `sandbox charge ${id} not found`, { httpStatus: 404 });
    return charge;
  }

  const checkoutOf = (charge: SandboxCharge) => (charge.checkoutId ? SandboxCheckout.findByPk(charge.checkoutId) : null);
  const read = async (charge: SandboxCharge) => toProviderPayment(charge, null, await checkoutOf(charge));

  async function transition(
    id: string,
    allowed: (charge: SandboxCharge) => boolean,
    change: Partial<Pick<SandboxCharge, 'status' | 'statusDetail' | 'approvedAt'>>,
  ): Promise<ProviderPayment> {
    return SandboxCharge.sequelize!.transaction(async (transaction) => {
      const charge = await SandboxCharge.findByPk(isUuid(id) ? id : '00000000-0000-0000-0000-000000000000', {
        transaction,
        lock: transaction.LOCK.NO_KEY_UPDATE,
      });
      if (!charge) throw new PaymentProviderError('not_found', `sandbox charge ${id} not found`, { httpStatus: 404 });
      if (charge.status !== change.status) {
        if (!allowed(charge)) {
          throw new PaymentProviderError('conflict', `sandbox charge ${id} is ${charge.status}`, { providerMessage: charge.status });
        }
        await charge.update(change, { transaction });
      }
      return toProviderPayment(charge, null, charge.checkoutId ? await SandboxCheckout.findByPk(charge.checkoutId, { transaction }) : null);
    });
  }

  async function createBooked(kind: SandboxCheckout['kind'], input: CreateCheckoutInput | CreateRenewalInput): Promise<SandboxCheckout> {
    if (input.amountCents <= 0) throw new PaymentProviderError('validation', 'valor da cobrança deve ser maior que zero');
    const [checkout] = await SandboxCheckout.findOrCreate({
      where: { idempotencyKey: input.idempotencyKey },
      defaults: {
        idempotencyKey: input.idempotencyKey,
        kind,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.title,
        payerEmail: input.payerEmail,
        externalReference: input.externalReference,
        returnUrl: input.returnUrl,
        frequencyMonths: 'frequencyMonths' in input ? input.frequencyMonths : null,
        maxInstallments: 'maxInstallments' in input ? input.maxInstallments : 1,
      },
    });
    return checkout;
  }

  return {
    name: 'sandbox',
    async createPix(input: CreatePixInput) {
      if (input.amountCents <= 0) throw new PaymentProviderError('validation', 'valor da cobrança deve ser maior que zero');
      const existing = await SandboxCharge.findOne({ where: { idempotencyKey: input.idempotencyKey } });
      if (existing) return toProviderPayment(existing, existing.qrCode ? await qrPngBase64(existing.qrCode) : null);
      const id = randomUUID();
      const qrCode = buildPixBrCode({
        pixKey: SANDBOX_PIX_KEY,
        amountCents: input.amountCents,
        merchantName: SANDBOX_MERCHANT.name,
        merchantCity: SANDBOX_MERCHANT.city,
        txid: `SBX${id.replace(/-/g, '')}`,
      });
      const [charge] = await SandboxCharge.findOrCreate({
        where: { idempotencyKey: input.idempotencyKey },
        defaults: {
          id,
          idempotencyKey: input.idempotencyKey,
          status: 'pending',
          statusDetail: 'pending_waiting_transfer',
          amountCents: input.amountCents,
          description: input.description,
          payerEmail: input.payerEmail,
          externalReference: input.externalReference,
          qrCode,
          expiresAt: input.expiresAt,
        },
      });
      return toProviderPayment(charge, await qrPngBase64(qrCode));
    },
    async getPayment(id) {
      return read(await find(id));
    },
    cancelPayment(id) {
      return transition(id, (c) => c.status === 'pending', { status: 'cancelled', statusDetail: 'by_collector' });
    },
    refundPayment(id) {
      return transition(id, (c) => c.status === 'approved', { status: 'refunded', statusDetail: 'refunded' });
    },
    approve(id, opts = {}) {
      return transition(
        id,
        (c) =>
          (c.status === 'pending' && (opts.allowLate || c.expiresAt === null || c.expiresAt.getTime() > Date.now())) ||
          (opts.allowLate === true && (c.status === 'cancelled' || c.status === 'rejected')),
        { status: 'approved', statusDetail: 'accredited', approvedAt: new Date() },
      );
    },
    reject(id) {
      return transition(id, (c) => c.status === 'pending', { status: 'rejected', statusDetail: 'bank_error' });
    },
    async createCheckout(input) {
      const checkout = await createBooked('payment', input);
      return { id: checkout.id, url: checkoutPagePath(checkout.id) };
    },
    async checkoutPayments(checkoutId) {
      const checkout = await findCheckout(checkoutId);
      const charges = await SandboxCharge.findAll({ where: { checkoutId: checkout.id }, order: [['createdAt', 'DESC']] });
      return charges.map((c) => toProviderPayment(c, null, checkout));
    },
    checkout: (id) => findCheckout(id),
    payCheckout(id, input) {
      return SandboxCheckout.sequelize!.transaction(async (transaction) => {
        const checkout = await findCheckout(id, 'payment', transaction);
        if (checkout.status !== 'open') throw new PaymentProviderError('conflict', `sandbox checkout ${id} is ${checkout.status}`);
        if (input.method === 'card' && (input.installments < 1 || input.installments > checkout.maxInstallments)) {
          throw new PaymentProviderError('validation', `installments must be 1 to ${checkout.maxInstallments}`);
        }
        // Like a real checkout page: a refused card can be tried again; an approval or a boleto ends it.
        if (input.method === 'boleto' || input.outcome !== 'rejected') await checkout.update({ status: 'completed' }, { transaction });
        return chargeOn(checkout, input.method, input.outcome, input.installments, transaction);
      });
    },
    async createRenewal(input) {
      const checkout = await createBooked('renewal', input);
      return toProviderRenewal(checkout);
    },
    async getRenewal(id) {
      return toProviderRenewal(await findCheckout(id, 'renewal'));
    },
    cancelRenewal(id) {
      return SandboxCheckout.sequelize!.transaction(async (transaction) => {
        const checkout = await findCheckout(id, 'renewal', transaction);
        if (checkout.status !== 'cancelled') await checkout.update({ status: 'cancelled' }, { transaction });
        return toProviderRenewal(checkout);
      });
    },
    async renewalCharges(id) {
      const checkout = await findCheckout(id, 'renewal');
      const charges = await SandboxCharge.findAll({ where: { checkoutId: checkout.id }, order: [['createdAt', 'ASC']] });
      return charges.map((c) => toProviderPayment(c, null, checkout));
    },
    async renewalCharge(chargeId) {
      return read(await find(chargeId));
    },
    authorizeRenewal(id, outcome) {
      return SandboxCheckout.sequelize!.transaction(async (transaction) => {
        const checkout = await findCheckout(id, 'renewal', transaction);
        if (checkout.status !== 'open') throw new PaymentProviderError('conflict', `sandbox renewal ${id} is ${checkout.status}`);
        if (outcome === 'approved') await checkout.update({ status: 'authorized' }, { transaction });
        return chargeOn(checkout, 'card', outcome, 1, transaction);
      });
    },
    chargeRenewal(id, outcome) {
      return SandboxCheckout.sequelize!.transaction(async (transaction) => {
        const checkout = await findCheckout(id, 'renewal', transaction);
        if (checkout.status !== 'authorized') throw new PaymentProviderError('conflict', `sandbox renewal ${id} is ${checkout.status}`);
        return chargeOn(checkout, 'card', outcome, 1, transaction);
      });
    },
  };
}
