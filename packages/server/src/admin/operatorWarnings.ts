/**
 * The operator's checklist on the admin dashboard: what stops the shop from selling or from
 * reaching its customers. Each check is one entry of OPERATOR_CHECKS: a code of
 * OPERATOR_WARNINGS (@aabify/shared, with its texts) and whether it applies now.
 *
 * The fiscal checks (seller data for receipts, an NFS-e provider) apply only while the shop
 * sells (a plan is active): with nothing for sale there is no receipt or note to miss.
 */
import { Op } from 'sequelize';
import { OPERATOR_WARNINGS, type OperatorWarning, type OperatorWarningCode } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { readSeller, sellerComplete } from '../fiscal/seller.js';

type Ctx = Pick<AppContext, 'config' | 'models' | 'settings'>;

/** How far back an undelivered password-reset request still warns the admins. */
const UNDELIVERED_RESET_WINDOW_MS = 7 * 24 * 3600 * 1000;

interface OperatorCheck {
  code: OperatorWarningCode;
  applies(ctx: Ctx): Promise<boolean>;
}

const sells = async (ctx: Ctx): Promise<boolean> => (await ctx.models.Plan.count({ where: { isActive: true } })) > 0;

export const OPERATOR_CHECKS: readonly OperatorCheck[] = [
  // A plan whose currency no provider can charge cannot be activated (docs/decisions.md), so an active plan is one customers can buy.
  { code: 'NO_BUYABLE_PLAN', applies: async (ctx) => !(await sells(ctx)) },
  { code: 'NO_SMTP', applies: async (ctx) => !ctx.config.mail.smtpUrl },
  // A customer who asked for a new password without SMTP was told to contact support: the admins hear of it here.
  {
    code: 'PASSWORD_RESET_UNDELIVERED',
    applies: async (ctx) =>
      !ctx.config.mail.smtpUrl &&
      (await ctx.models.EmailMessage.count({ where: { kind: 'password_reset', status: 'queued', createdAt: { [Op.gte]: new Date(Date.now() - UNDELIVERED_RESET_WINDOW_MS) } } })) > 0,
  },
  { code: 'NO_PUBLIC_URL', applies: async (ctx) => !ctx.config.publicUrl },
  { code: 'NO_SELLER_DATA', applies: async (ctx) => (await sells(ctx)) && !sellerComplete(await readSeller(ctx.settings)) },
  { code: 'NO_NFSE_PROVIDER', applies: async (ctx) => (await sells(ctx)) && !(await ctx.settings.get('nfse.token')) },
];

export async function operatorWarnings(ctx: Ctx, checks: readonly OperatorCheck[] = OPERATOR_CHECKS): Promise<OperatorWarning[]> {
  const applying = await Promise.all(checks.map(async (check) => ((await check.applies(ctx)) ? check.code : null)));
  return applying.filter((code): code is OperatorWarningCode => code !== null).map((code) => ({ code, ...OPERATOR_WARNINGS[code] }));
}
