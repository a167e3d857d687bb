/**
 * Sessions as rows (table `sessions`, migration 0150): one per sign-in, named by its token's
 * jti. A session token holds while its row is not ended, not expired and was made under the
 * user's current tokenVersion (a password change or "sair de todos" raises it); the row also
 * keeps where it came from, when it was last used, and when it last proved the password or a
 * two-factor code. Authentication reads rows through the principal cache (principalCache.ts),
 * so a request costs no query while nothing changed.
 *
 * Tokens signed before sessions were rows have none: the first request with one writes it
 * (adoptSession), so an upgrade signs nobody out; the migration turned the old list of
 * signed-out sessions into ended rows, so those stay out.
 */
import { randomUUID } from 'node:crypto';
import { Op, QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize';
import { SESSIONS_PER_USER_MAX } from '@aabify/shared';
import type { Models, Session, User } from '../models/index.js';
import { deviceKey } from './devices.js';

export interface SessionDeps {
  models: Models;
  sequelize: Sequelize;
}

/** Rows of sessions that expired this long ago go: until then they only answer "seen before?". */
export const SESSION_HISTORY_DAYS = 90;

export interface NewSession {
  /** The token's jti; a two-factor challenge fixes it in advance (so a challenge opens one session). */
  id?: string;
  user: Pick<User, 'id' | 'tokenVersion'>;
  expiresAt: Date;
  userAgent: string | null;
  address: string | null;
  /** Limited to enrolling in two-factor sign-in (an admin without it where it is required). */
  enrolmentRequired?: boolean;
}

/** Where an account signed in before: for the "new device or address" e-mail. */
export interface SignInHistory {
  /** Any earlier session at all (a first sign-in alerts nobody). */
  any: boolean;
  deviceSeen: boolean;
  addressSeen: boolean;
}

export async function signInHistory(deps: SessionDeps, userId: string, userAgent: string | null, address: string | null): Promise<SignInHistory> {
  const rows = await deps.models.Session.findAll({
    where: { userId },
    attributes: ['userAgent', 'address'],
    order: [['createdAt', 'DESC']],
    limit: 2 * SESSIONS_PER_USER_MAX,
  });
  const device = deviceKey(userAgent);
  return {
    any: rows.length > 0,
    deviceSeen: rows.some((r) => r.userAgent !== null && deviceKey(r.userAgent) === device),
    addressSeen: address !== null && rows.some((r) => r.address === address),
  };
}

/**
 * Writes a new session's row, proven now (verifiedAt): every sign-in checks a password or a
 * code. Null when the id is taken (a challenge used twice). Also prunes the user's rows: those
 * long expired go, and live sessions past SESSIONS_PER_USER_MAX end, oldest first (`ended`: how
 * many; the caller lets every process's cache hear of it before answering).
 */
export async function createSession(deps: SessionDeps, s: NewSession): Promise<{ row: Session; ended: number } | null> {
  const now = new Date();
  let row: Session;
  try {
    row = await deps.models.Session.create({
      id: s.id ?? randomUUID(),
      userId: s.user.id,
      tokenVersion: s.user.tokenVersion,
      createdAt: now,
      expiresAt: s.expiresAt,
      lastUsedAt: now,
      userAgent: s.userAgent,
      address: s.address,
      verifiedAt: now,
      enrolmentRequired: s.enrolmentRequired ?? false,
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError) return null;
    throw err;
  }
  return { row, ended: await pruneSessions(deps, s.user) };
}

/** Answers how many live sessions ended for being past the cap. */
async function pruneSessions(deps: SessionDeps, user: Pick<User, 'id' | 'tokenVersion'>): Promise<number> {
  // Raw statements: the rows' trigger tells every process's cache, and a bulk write through the
  // model would drop this process's whole cache (db/notifiedCache.ts dropOnWrite).
  await deps.sequelize.query(`DELETE FROM sessions WHERE "userId" = :userId AND "expiresAt" < now() - make_interval(days => :days)`, {
    replacements: { userId: user.id, days: SESSION_HISTORY_DAYS },
    type: QueryTypes.DELETE,
  });
  const ended = await deps.sequelize.query<{ id: string }>(
    `UPDATE sessions SET "endedAt" = now() WHERE id IN (
       SELECT id FROM sessions WHERE "userId" = :userId AND "endedAt" IS NULL AND "expiresAt" > now() AND "tokenVersion" = :tokenVersion
       ORDER BY "createdAt" DESC OFFSET :max)
     RETURNING id`,
    { replacements: { userId: user.id, tokenVersion: user.tokenVersion, max: SESSIONS_PER_USER_MAX }, type: QueryTypes.SELECT },
  );
  return ended.length;
}

/**
 * A row for a token signed before sessions were rows (verified by the caller: signature, expiry,
 * tokenVersion): it was issued by a sign-in, so it counts as proven when it was issued. Another
 * process adopting it at the same time is harmless (ON CONFLICT).
 */
export async function adoptSession(deps: SessionDeps, s: { id: string; userId: string; tokenVersion: number; issuedAt: Date; expiresAt: Date }): Promise<void> {
  await deps.sequelize.query(
    `INSERT INTO sessions (id, "userId", "tokenVersion", "createdAt", "expiresAt", "verifiedAt", "enrolmentRequired")
     VALUES (:id, :userId, :tokenVersion, :issuedAt, :expiresAt, :issuedAt, false) ON CONFLICT (id) DO NOTHING`,
    { replacements: s, type: QueryTypes.INSERT },
  );
}

/** The user's sessions that still hold, most recently used first. */
export async function liveSessions(deps: Pick<SessionDeps, 'models'>, user: Pick<User, 'id' | 'tokenVersion'>): Promise<Session[]> {
  return deps.models.Session.findAll({
    where: { userId: user.id, endedAt: null, tokenVersion: user.tokenVersion, expiresAt: { [Op.gt]: new Date() } },
    order: [
      ['lastUsedAt', 'DESC NULLS LAST'],
      ['createdAt', 'DESC'],
    ],
    limit: SESSIONS_PER_USER_MAX,
  });
}

/** Ends one session of the user (sign-out, "Encerrar"); false when it was not theirs or already over. */
export async function endSession(deps: Pick<SessionDeps, 'models'>, userId: string, sessionId: string): Promise<boolean> {
  const [count] = await deps.models.Session.update({ endedAt: new Date() }, { where: { id: sessionId, userId, endedAt: null } });
  return count > 0;
}

/**
 * Every session of the user, on every device (tokenVersion goes up, which also ends tokens
 * that never got a row); API tokens stay (they are revoked one by one).
 */
export async function endAllSessions(deps: SessionDeps, userId: string): Promise<void> {
  await deps.sequelize.transaction(async (transaction) => {
    const user = await deps.models.User.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!user) return;
    user.tokenVersion += 1;
    await user.save({ transaction });
    await deps.models.Session.update({ endedAt: new Date() }, { where: { userId, endedAt: null }, transaction });
  });
}

/** Marks the session as having proven the password or a code just now (POST /auth/reauth). */
export async function markSessionVerified(deps: Pick<SessionDeps, 'models'>, sessionId: string, at: Date = new Date()): Promise<void> {
  await deps.models.Session.update({ verifiedAt: at }, { where: { id: sessionId } });
}
