/**
 * What a conversion costs its owner (docs/decisions.md, "Credits and plans"): a credit user
 * reserves 1 credit at submission, spent on completion and given back on failure or cancel;
 * subscribers (until expiresAt) and admins convert without credits. Every move happens inside
 * the caller's transaction with the user's row locked, and only from `reserved`, so a credit
 * moves exactly once and two parallel submissions can never take the same last credit.
 */
import type { Transaction } from 'sequelize';
import { CONVERSION_MESSAGES, PLAN_ACCESS_ERROR_CODES, PLAN_ACCESS_MESSAGES, PLAN_ACCESS_REDIRECT, conversionMonthKey } from '@aabify/shared';
import type { Conversion, CreditState, Models, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';

/**
 * Counter moves read the row back: the version the database gave it lets this process patch its
 * cached principal at commit instead of dropping it (accounts/principalCache.ts).
 */
const COUNTERS_READ_BACK = true;

export function paymentRequired(user: User, now: Date = new Date()): ApiError | undefined {
  if (user.hasAdminRole()) return undefined;
  const access = user.planAccess(now);
  if (access === 'active') return undefined;
  const message =
    access === 'no_credits' ? CONVERSION_MESSAGES.notEnoughCredits : access === 'expired' ? CONVERSION_MESSAGES.cannotConvert : PLAN_ACCESS_MESSAGES.no_plan;
  return new ApiError(402, PLAN_ACCESS_ERROR_CODES[access], message, { details: { planStatus: access, redirectTo: PLAN_ACCESS_REDIRECT } });
}

/** Takes what a new conversion costs from a user locked (FOR NO KEY UPDATE) in `transaction`. */
export async function reserveCredit(user: User, transaction: Transaction): Promise<CreditState> {
  const refused = paymentRequired(user);
  if (refused) throw refused;
  if (user.hasAdminRole() || user.userType !== 'credit') return 'none';
  await user.update({ credits: user.credits - 1, creditsReserved: user.creditsReserved + 1 }, { transaction, returning: COUNTERS_READ_BACK });
  return 'reserved';
}

async function lockedUser(models: Models, userId: string, transaction: Transaction): Promise<User | null> {
  return models.User.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE, paranoid: false });
}

/** Spends (completed) or gives back (failed, cancelled) a reserved credit. */
export async function settleCredit(models: Models, conversion: Conversion, outcome: 'spent' | 'returned', transaction: Transaction): Promise<void> {
  const counts = outcome === 'spent';
  if (conversion.creditState !== 'reserved' && !counts) return;
  const user = await lockedUser(models, conversion.userId, transaction);
  if (!user) return;
  const changes: Partial<Pick<User, 'credits' | 'creditsReserved' | 'creditsOwed' | 'conversionsCount' | 'monthlyConversions' | 'monthlyConversionsMonth'>> = {};
  if (conversion.creditState === 'reserved') {
    const reserved = Math.max(0, user.creditsReserved - 1);
    changes.creditsReserved = reserved;
    if (outcome === 'returned' && user.creditsOwed > 0) {
      // A refund took this credit back while the conversion held it: it pays the debt.
      changes.creditsOwed = user.creditsOwed - 1;
    } else {
      if (outcome === 'returned') changes.credits = user.credits + 1;
      // Spent: the debt can never exceed what is still reserved.
      if (user.creditsOwed > reserved) changes.creditsOwed = reserved;
    }
    conversion.creditState = outcome;
  }
  if (counts) {
    const month = conversionMonthKey();
    changes.conversionsCount = user.conversionsCount + 1;
    changes.monthlyConversions = user.monthlyConversionsMonth === month ? user.monthlyConversions + 1 : 1;
    changes.monthlyConversionsMonth = month;
  }
  await user.update(changes, { transaction, returning: COUNTERS_READ_BACK });
}
