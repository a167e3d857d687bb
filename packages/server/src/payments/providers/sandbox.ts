/**
 * The sandbox provider: real-looking PIX charges (valid BR Code with CRC, QR PNG) kept in
 * sandbox_charges, which nobody can pay. They are approved by an admin
 * (POST /admin/payments/{id}/approve) or by the buyer with simulate-approval, sandbox only.
 */
import { isUuid } from '@aabify/shared';
import { randomUUID } from 'node:crypto';
import type { Models, SandboxCharge } from '../../models/index.js';
import { buildPixBrCode } from './brcode.js';
import { qrPngBase64 } from './qr.js';
import { PaymentProviderError, type CreatePixInput, type PaymentProvider, type ProviderPayment } from './provider.js';

/** A fixed random-key (EVP) for the sandbox merchant; no bank knows it. */
export const SANDBOX_PIX_KEY = '7d9f0c3e-5b1a-4e2c-9f8d-aab1f7000000';
export const SANDBOX_MERCHANT = { name: 'AABIFY SANDBOX', city: 'SAO PAULO' } as const;

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** Marks a charge paid. Late approval of an expired or cancelled charge only with allowLate. */
  approve(id: string, opts?: { allowLate?: boolean }): Promise<ProviderPayment>;
  reject(id: string): Promise<ProviderPayment>;
}


function toProviderPayment(charge: SandboxCharge, qrCodeBase64: string | null): ProviderPayment {
  return {
    id: charge.id,
    status: charge.status,
    rawStatus: charge.status,
    statusDetail: charge.statusDetail,
    amountCents: charge.amountCents,
    currency: 'BRL',
    externalReference: charge.externalReference,
    qrCode: charge.qrCode,
    qrCodeBase64,
    ticketUrl: null,
    expiresAt: charge.expiresAt,
    approvedAt: charge.approvedAt,
  };
}

export function createSandboxProvider(models: Pick<Models, 'SandboxCharge'>): SandboxProvider {
  const { SandboxCharge } = models;

  async function find(id: string): Promise<SandboxCharge> {
    const charge = isUuid(id) ? await SandboxCharge.findByPk(id) : null;
    if (!charge) throw new PaymentProviderError('not_found', `sandbox charge ${id} not found`, { httpStatus: 404 });
    return charge;
  }

  async function transition(
    id: string,
    allowed: (charge: SandboxCharge) => boolean,
    change: Partial<Pick<SandboxCharge, 'status' | 'statusDetail' | 'approvedAt'>>,
  ): Promise<ProviderPayment> {
    return SandboxCharge.sequelize!.transaction(async (transaction) => {
      const charge = await SandboxCharge.findByPk(isUuid(id) ? id : '00000000-0000-0000-0000-000000000000', {
        transaction,
        lock: transaction.LOCK.UPDATE,
      });
      if (!charge) throw new PaymentProviderError('not_found', `sandbox charge ${id} not found`, { httpStatus: 404 });
      if (charge.status === change.status) return toProviderPayment(charge, null);
      if (!allowed(charge)) {
        throw new PaymentProviderError('conflict', `sandbox charge ${id} is ${charge.status}`, { providerMessage: charge.status });
      }
      await charge.update(change, { transaction });
      return toProviderPayment(charge, null);
    });
  }

  return {
    name: 'sandbox',
    async createPix(input: CreatePixInput) {
      if (input.amountCents <= 0) throw new PaymentProviderError('validation', 'valor da cobrança deve ser maior que zero');
      const existing = await SandboxCharge.findOne({ where: { idempotencyKey: input.idempotencyKey } });
      if (existing) return toProviderPayment(existing, await qrPngBase64(existing.qrCode));
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
      return toProviderPayment(charge, await qrPngBase64(charge.qrCode));
    },
    async getPayment(id) {
      return toProviderPayment(await find(id), null);
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
          (c.status === 'pending' && (opts.allowLate || c.expiresAt.getTime() > Date.now())) ||
          (opts.allowLate === true && (c.status === 'cancelled' || c.status === 'rejected')),
        { status: 'approved', statusDetail: 'accredited', approvedAt: new Date() },
      );
    },
    reject(id) {
      return transition(id, (c) => c.status === 'pending', { status: 'rejected', statusDetail: 'bank_error' });
    },
  };
}
