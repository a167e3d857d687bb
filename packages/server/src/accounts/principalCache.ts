/**
 * The authenticated principal in memory, so a request with a bearer token costs no query when
 * nothing changed: users by id (the session's tokenVersion, isActive and role are checked
 * against the cached row as against a fresh one) and API tokens by hash. Both tables announce
 * their changes through triggers (migration 0120), so a deactivation, a password change, a
 * demotion, a deletion or a revocation drops the entry on every process (db/notifiedCache.ts).
 * Entries are plain values; every call builds a new model instance, so a route that changes
 * its user cannot change what the next request sees.
 */
import type { InferAttributes } from 'sequelize';
import type { Notifier } from '../db/notifications.js';
import { NotifiedCache } from '../db/notifiedCache.js';
import type { Models, User } from '../models/index.js';

/** What authentication needs of an API token row. */
export interface CachedApiToken {
  id: string;
  userId: string;
  /** Updated in memory when this process writes it (the trigger ignores lastUsedAt). */
  lastUsedAt: Date | null;
}

/** Entries per cache; a user or token past it is read again when it next comes. */
export const PRINCIPAL_CACHE_MAX = 10_000;
/** Safety net only: notifications drop entries as soon as their rows change. */
export const PRINCIPAL_CACHE_MAX_AGE_MS = 60_000;

export class PrincipalCache {
  readonly users: NotifiedCache<InferAttributes<User>>;
  readonly tokens: NotifiedCache<CachedApiToken>;

  constructor(
    private readonly models: Models,
    notifier: Notifier | undefined,
  ) {
    const limits = { max: PRINCIPAL_CACHE_MAX, maxAgeMs: PRINCIPAL_CACHE_MAX_AGE_MS };
    this.users = new NotifiedCache(notifier, { topic: 'user', ...limits });
    this.tokens = new NotifiedCache(notifier, { topic: 'api-token', ...limits });
    this.users.dropOnWrite(models.User, 'id');
    this.tokens.dropOnWrite(models.ApiToken, 'tokenHash');
  }

  /** The user as last committed (not deleted), or null. */
  async userById(id: string): Promise<User | null> {
    const values = await this.users.get(id, async () => (await this.models.User.findByPk(id))?.get({ plain: true }));
    return values ? this.models.User.build(values, { isNewRecord: false, raw: true }) : null;
  }

  async tokenByHash(tokenHash: string): Promise<CachedApiToken | undefined> {
    return this.tokens.get(tokenHash, async () => {
      const row = await this.models.ApiToken.findOne({ where: { tokenHash }, attributes: ['id', 'userId', 'lastUsedAt'] });
      return row ? { id: row.id, userId: row.userId, lastUsedAt: row.lastUsedAt } : undefined;
    });
  }
}
