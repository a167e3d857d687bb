/**
 * The operator's checklist on the admin dashboard: what stops the shop from selling or from
 * reaching its customers. Each check is one entry of OPERATOR_CHECKS: a code of
 * OPERATOR_WARNINGS (@aabify/shared, with its texts) and whether it applies now.
 *
 * The NFS-e check joins this list when the NFS-e feature adds its provider setting: "no NFS-e
 * provider configured" becomes a code in OPERATOR_WARNINGS and a check here reading that setting.
 * Until the setting exists there is nothing to configure, so nothing is said.
 */
import { Op } from 'sequelize';
import { OPERATOR_WARNINGS, type OperatorWarning, type OperatorWarningCode } from '@aabify/shared';
import type { AppContext } from '../context.js';

type Ctx = Pick<AppContext, 'config' | 'models' | 'settings'>;

/** How far back an undelivered password-reset request still warns the admins. */
const UNDELIVERED_RESET_WINDOW_MS = 7 * 24 * 3600 * 1000;

interface OperatorCheck {
  code: OperatorWarningCode;
  applies(ctx: Ctx): Promise<boolean>;
}

export const OPERATOR_CHECKS: readonly OperatorCheck[] = [
  // A plan whose currency no provider can charge cannot be activated (docs/decisions.md), so an active plan is one customers can buy.
  { code: 'NO_BUYABLE_PLAN', applies: async (ctx) => (await ctx.models.Plan.count({ where: { isActive: true } })) === 0 },
  { code: 'NO_SMTP', applies: async (ctx) => !ctx.config.mail.smtpUrl },
  // A customer who asked for a new password without SMTP was told to contact support: the admins hear of it here.
  {
    code: 'PASSWORD_RESET_UNDELIVERED',
    applies: async (ctx) =>
      !ctx.config.mail.smtpUrl &&
      (await ctx.models.EmailMessage.count({ where: { kind: 'password_reset', status: 'queued', createdAt: { [Op.gte]: new Date(Date.now() - UNDELIVERED_RESET_WINDOW_MS) } } })) > 0,
  },
  { code: 'NO_PUBLIC_URL', applies: async (ctx) => !ctx.config.publicUrl },
];

export async function operatorWarnings(ctx: Ctx, checks: readonly OperatorCheck[] = OPERATOR_CHECKS): Promise<OperatorWarning[]> {
  const applying = await Promise.all(checks.map(async (check) => ((await check.applies(ctx)) ? check.code : null)));
  return applying.filter((code): code is OperatorWarningCode => code !== null).map((code) => ({ code, ...OPERATOR_WARNINGS[code] }));
}
