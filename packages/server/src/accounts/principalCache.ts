/**
 * The authenticated principal in memory, so a request with a bearer token costs no query when
 * nothing changed: users by id (tokenVersion, isActive and role are checked against the cached
 * row as against a fresh one), sessions by id (accounts/sessions.ts) and API tokens by hash.
 * The tables announce their changes through triggers (migrations 0120, 0150, 0151), so a
 * deactivation, a password change, a demotion, a deletion, a sign-out or a revocation drops
 * the entry on every process (db/notifiedCache.ts). A change of a user's counters alone
 * (credits reserved, spent or given back, conversions counted: migration 0240) is announced
 * with the new values, which every process patches into its entry: a conversion does not make
 * each poll of its owner read the user again.
 * Entries are plain values; every call builds a new model instance, so a route that changes
 * its user cannot change what the next request sees.
 */
import type { InferAttributes } from 'sequelize';
import type { ApiTokenScope } from '@aabify/shared';
import type { Notifier } from '../db/notifications.js';
import { NotifiedCache, type IoMark, type RowPatch, type SaveOptions } from '../db/notifiedCache.js';
import type { Models, User } from '../models/index.js';

/** What authentication needs of an API token row. */
export interface CachedApiToken {
  id: string;
  userId: string;
  scopes: ApiTokenScope[];
  /** Updated in memory when this process writes it (the trigger ignores lastUsedAt). */
  lastUsedAt: Date | null;
}

/** What authentication needs of a session row. */
export interface CachedSession {
  id: string;
  userId: string;
  tokenVersion: number;
  createdAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  verifiedAt: Date | null;
  enrolmentRequired: boolean;
  /** Updated in memory when this process writes it (the trigger ignores lastUsedAt). */
  lastUsedAt: Date | null;
}

/** Entries per cache; a user or token past it is read again when it next comes. */
export const PRINCIPAL_CACHE_MAX = 10_000;
/** Safety net only: notifications drop entries as soon as their rows change. */
export const PRINCIPAL_CACHE_MAX_AGE_MS = 60_000;

type UserValues = InferAttributes<User>;

/** The columns whose change alone is announced as a patch (migration 0240 names the same). */
const USER_COUNTERS = ['credits', 'creditsReserved', 'creditsOwed', 'conversionsCount', 'monthlyConversions', 'monthlyConversionsMonth', 'updatedAt', 'rowVersion'] as const;
type UserCounters = Pick<UserValues, (typeof USER_COUNTERS)[number]>;

function userPatch(id: string, counters: UserCounters): RowPatch<UserValues> {
  return { key: id, version: Number(counters.rowVersion), apply: (value) => ({ ...value, ...counters }) };
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v);

/** The trigger's payload: the user's id and the counters' new values (JSON of the row's columns). */
function userPatchFromPayload(payload: string): RowPatch<UserValues> | undefined {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { id, credits, creditsReserved, creditsOwed, conversionsCount, monthlyConversions, monthlyConversionsMonth, updatedAt, rowVersion } = p;
  if (typeof id !== 'string' || ![credits, creditsReserved, creditsOwed, conversionsCount, monthlyConversions, rowVersion].every(isCount)) return undefined;
  if (monthlyConversionsMonth !== null && typeof monthlyConversionsMonth !== 'string') return undefined;
  if (typeof updatedAt !== 'string' || Number.isNaN(Date.parse(updatedAt))) return undefined;
  return userPatch(id, {
    credits: credits as number,
    creditsReserved: creditsReserved as number,
    creditsOwed: creditsOwed as number,
    conversionsCount: conversionsCount as number,
    monthlyConversions: monthlyConversions as number,
    monthlyConversionsMonth,
    updatedAt: new Date(updatedAt),
    // As Sequelize reads a bigint.
    rowVersion: String(rowVersion),
  });
}

/**
 * A save of this process that changed only counters and read the row back (`returning: true`,
 * so the instance holds the version the database gave it): its entry is patched at commit.
 */
function userPatchFromSave(user: User, options: SaveOptions): RowPatch<UserValues> | undefined {
  if (options.returning !== true || !options.fields?.every((f) => (USER_COUNTERS as readonly PropertyKey[]).includes(f))) return undefined;
  const counters = Object.fromEntries(USER_COUNTERS.map((c) => [c, user.get(c)])) as unknown as UserCounters;
  return userPatch(user.id, counters);
}

export class PrincipalCache {
  readonly users: NotifiedCache<UserValues>;
  readonly tokens: NotifiedCache<CachedApiToken>;
  readonly sessions: NotifiedCache<CachedSession>;

  /** `loadFrom`: the models rows are read through when not in memory (the read lane's, db/readLane.ts). */
  constructor(
    private readonly models: Models,
    notifier: Notifier | undefined,
    private readonly loadFrom: Models,
  ) {
    const limits = { max: PRINCIPAL_CACHE_MAX, maxAgeMs: PRINCIPAL_CACHE_MAX_AGE_MS };
    this.users = new NotifiedCache<UserValues>(notifier, {
      topic: 'user',
      ...limits,
      patches: { topic: 'user-counters', parse: userPatchFromPayload, versionOf: (user) => Number(user.rowVersion) },
    });
    this.tokens = new NotifiedCache(notifier, { topic: 'api-token', ...limits });
    this.sessions = new NotifiedCache(notifier, { topic: 'session', ...limits });
    this.users.dropOnWrite(models.User, 'id', userPatchFromSave);
    this.tokens.dropOnWrite(models.ApiToken, 'tokenHash');
    this.sessions.dropOnWrite(models.Session, 'id');
  }

  /** The user as last committed (not deleted), or null. `since`: when the request arrived (db/notifiedCache.ts). */
  async userById(id: string, since?: IoMark): Promise<User | null> {
    const values = await this.users.get(id, async () => (await this.loadFrom.User.findByPk(id))?.get({ plain: true }), since);
    return values ? this.models.User.build(values, { isNewRecord: false, raw: true }) : null;
  }

  async tokenByHash(tokenHash: string, since?: IoMark): Promise<CachedApiToken | undefined> {
    return this.tokens.get(
      tokenHash,
      async () => {
        const row = await this.loadFrom.ApiToken.findOne({ where: { tokenHash }, attributes: ['id', 'userId', 'scopes', 'lastUsedAt'] });
        return row ? { id: row.id, userId: row.userId, scopes: row.scopes, lastUsedAt: row.lastUsedAt } : undefined;
      },
      since,
    );
  }

  async sessionById(id: string, since?: IoMark): Promise<CachedSession | undefined> {
    return this.sessions.get(
      id,
      async () => {
        const row = await this.loadFrom.Session.findByPk(id);
        return row ? cachedSession(row) : undefined;
      },
      since,
    );
  }
}

export function cachedSession(row: CachedSession): CachedSession {
  return {
    id: row.id,
    userId: row.userId,
    tokenVersion: row.tokenVersion,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    endedAt: row.endedAt,
    verifiedAt: row.verifiedAt,
    enrolmentRequired: row.enrolmentRequired,
    lastUsedAt: row.lastUsedAt,
  };
}
