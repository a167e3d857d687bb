/**
 * The Postgres connections of one process, by pool, each named in pg_stat_activity as
 * `aabify-<role>-<instance>-<pool>` so an operator (and the connection test) can count them.
 * The budget (docs/deploy.md): DATABASE_POOL_MAX for Sequelize + FIXED_CONNECTIONS.
 */
export const POOLS = {
  /** Agenda's backend: one LISTEN connection (job wake-ups; every role holds it, web roles to announce) and its queries. */
  queue: 3,
  /** socket.io Postgres adapter: one LISTEN, one publisher (keeps each conversion's messages in order). */
  realtime: 2,
  /** Cross-process invalidation (db/notifications.ts): one LISTEN. */
  notifications: 1,
  /** Rate limits (http/rateLimiter.ts), kept apart so a flood cannot starve the app's pool; opened on first use. */
  ratelimits: 3,
  /** The reads a status poll needs (db/readLane.ts: queue figures, rows the caches load), never behind a burst in the app's pool. */
  reads: 2,
  /**
   * Who a request is (db/readLane.ts: the sessions, users and API tokens the principal cache
   * loads), apart from the reads a poll needs: a burst of new sessions queues here, not in front
   * of the status reads of those already known.
   */
  principals: 2,
} as const;

export const FIXED_CONNECTIONS = POOLS.queue + POOLS.realtime + POOLS.notifications + POOLS.ratelimits + POOLS.reads + POOLS.principals;

/** The most connections a process holds at once; start-up's schema work borrows from the Sequelize pool. */
export function connectionBudget(databasePoolMax: number): number {
  return databasePoolMax + FIXED_CONNECTIONS;
}

export function applicationName(role: string, instance: string, pool: keyof typeof POOLS | 'db'): string {
  return `aabify-${role}-${instance}-${pool}`;
}
