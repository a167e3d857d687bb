/**
 * Sign-in attempts are counted before the (slow) password check and given back on success,
 * so N simultaneous guesses check at most the limit:
 *
 *   1. (email, address): strict (5 per 15 min) — a guesser's own allowance;
 *   2. address: 20 per 15 min, whatever the emails;
 *   3. email from every address: the first 20 failures per hour are free; past them each
 *      attempt opens a wait (1 s, 2 s, 4 s … at most 60 s) before the next one is checked.
 *
 * A stranger therefore cannot lock the owner out: from one address they spend their own five
 * attempts; from many, they only slow the account down, and the owner's attempt goes through
 * after the wait. A refused attempt is not checked, and only the limit that refused it keeps
 * it counted.
 */
import { loginWaitSeconds, type AuthLimiters } from './authService.js';
import { addressKey } from '../http/rateLimit.js';

export type LoginReservation =
  | { refused: true; retryAfter: number }
  | { refused: false; settle(success: boolean): Promise<void> };

export async function reserveLoginAttempt(limiters: AuthLimiters, email: string, address: string): Promise<LoginReservation> {
  const addr = addressKey(address);
  const pairKey = `${email}|${addr}`;
  const taken: Array<() => Promise<void>> = [];
  const refuse = async (retryAfter: number): Promise<LoginReservation> => {
    await Promise.all(taken.map((giveBack) => giveBack()));
    return { refused: true, retryAfter };
  };

  const pair = await limiters.loginPerAccountAddress.consume(pairKey);
  if (pair.limited) return refuse(pair.retryAfter);
  taken.push(() => limiters.loginPerAccountAddress.refund(pairKey));

  const perAddress = await limiters.loginPerAddress.consume(addr);
  if (perAddress.limited) return refuse(perAddress.retryAfter);
  taken.push(() => limiters.loginPerAddress.refund(addr));

  const account = await limiters.loginPerAccount.consume(email);
  taken.push(() => limiters.loginPerAccount.refund(email));
  const excess = account.consumed - limiters.loginPerAccount.options.points;
  if (excess > 0) {
    const wait = await limiters.loginAccountWait.consume(email, 1, loginWaitSeconds(excess));
    if (wait.limited) return refuse(wait.retryAfter);
  }

  return {
    refused: false,
    async settle(success) {
      if (!success) return;
      // The owner proved the password: their own address starts afresh; the account's count
      // only gets this attempt back, so a distributed guessing run keeps its slowdown.
      await Promise.all([
        limiters.loginPerAccountAddress.reset(pairKey),
        limiters.loginPerAddress.refund(addr),
        limiters.loginPerAccount.refund(email),
      ]);
    },
  };
}
