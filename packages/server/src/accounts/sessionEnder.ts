/**
 * Signing out on the server: one session (its token's jti joins users.endedSessions until it
 * would have expired) or all of them (tokenVersion goes up). Either way the user's row changes,
 * which every process's principal cache hears about, and the caller closes live connections.
 */
import type { AppContext } from '../context.js';
import type { EndedSession } from '../models/index.js';

/** Past this many signed-out sessions still unexpired, one more ends them all instead. */
export const ENDED_SESSIONS_MAX = 200;

export async function endSession(ctx: Pick<AppContext, 'models' | 'sequelize'>, userId: string, sessionId: string | undefined, expiresAt: Date | undefined): Promise<void> {
  await ctx.sequelize.transaction(async (transaction) => {
    const user = await ctx.models.User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!user) return;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const kept: EndedSession[] = user.endedSessions.filter((e) => e.exp > nowSeconds);
    if (sessionId === undefined || expiresAt === undefined || kept.length >= ENDED_SESSIONS_MAX) {
      // A token without a name (made before sessions had one) can only end with all of them.
      user.tokenVersion += 1;
      user.endedSessions = [];
    } else {
      user.endedSessions = [...kept, { id: sessionId, exp: Math.ceil(expiresAt.getTime() / 1000) }];
    }
    await user.save({ transaction });
  });
}

/** Every session of the user, on every device; API tokens stay (they are revoked one by one). */
export async function endAllSessions(ctx: Pick<AppContext, 'models' | 'sequelize'>, userId: string): Promise<void> {
  await ctx.sequelize.transaction(async (transaction) => {
    const user = await ctx.models.User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!user) return;
    user.tokenVersion += 1;
    user.endedSessions = [];
    await user.save({ transaction });
  });
}
