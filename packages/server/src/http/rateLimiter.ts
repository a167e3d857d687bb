/**
 * Every rate limit of the app, made one way: `RateLimits.limiter(name, rule)` gives a
 * rate-limiter-flexible counter kept in Postgres (table `rate_limits`, migration 0070), so any
 * number of web processes share one count per key.
 *
 * Bounded whatever the keys:
 * - a key is a client address or a verified user id (see http/rateLimit.ts), never a string
 *   the client picks; keys longer than MAX_PLAIN_KEY are stored as their SHA-256;
 * - a key over its limit is refused from this process's memory for the rest of its window
 *   (the library's in-memory block), so a flood from one key costs no query per request;
 * - when Postgres cannot answer (down, pool exhausted, over QUERY_TIMEOUT_MS), counting goes
 *   on in an insurance memory limiter that holds at most `insuranceMaxKeys` keys and evicts
 *   the least recently used one past that: limits still hold per process, memory stays flat.
 * Each check is one primary-key upsert (or nothing, when blocked in memory): constant cost.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type IRateLimiterOptions } from 'rate-limiter-flexible';
import type { Logger } from '../logger.js';
import { POOLS } from '../db/connections.js';

/** A limit: `points` events per window of `windowMs`. */
export interface RateLimiterOptions {
  points: number;
  windowMs: number;
}

export interface LimiterOptions {
  /**
   * Refuse a key from memory once it reached its limit, until its window ends (no query).
   * Default on; off for limiters whose points are given back (refund), where a block made in
   * one process could outlive the shared count.
   */
  blockInMemory?: boolean;
}

export interface RateLimitState {
  /** True when this event is over the limit (not counted as allowed). */
  limited: boolean;
  /** Events counted in the current window, this one included. */
  consumed: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 when limited). */
  retryAfter: number;
}

export const RATE_LIMIT_TABLE = 'rate_limits';
const MAX_PLAIN_KEY = 100;
const QUERY_TIMEOUT_MS = 2000;
const CLEANUP_EVERY_MS = 5 * 60_000;
const DEFAULT_INSURANCE_MAX_KEYS = 10_000;

function storedKey(key: string): string {
  return key.length <= MAX_PLAIN_KEY ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`;
}

function stateOf(res: RateLimiterRes, points: number, limited: boolean): RateLimitState {
  const consumed = res.consumedPoints ?? 0;
  const retryAfter = res.msBeforeNext > 0 ? Math.ceil(res.msBeforeNext / 1000) : 0;
  return { limited, consumed, remaining: Math.max(0, points - consumed), retryAfter: limited ? Math.max(1, retryAfter) : retryAfter };
}

/**
 * The insurance counter while Postgres is unreachable: the library's memory limiter with a cap
 * on keys. Insertion order of `recent` is the eviction order (a touched key moves to the end).
 */
class CappedMemoryLimiter extends RateLimiterMemory {
  private readonly recent = new Map<string, true>();

  constructor(
    opts: IRateLimiterOptions,
    private readonly maxKeys: number,
    private readonly onUse: () => void,
  ) {
    super(opts);
  }

  private admit(key: string | number): void {
    this.onUse();
    const k = String(key);
    this.recent.delete(k);
    this.recent.set(k, true);
    if (this.recent.size > this.maxKeys) {
      const oldest = this.recent.keys().next().value as string;
      this.recent.delete(oldest);
      void super.delete(oldest);
    }
  }

  override consume(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.admit(key);
    return super.consume(key, points, options);
  }
  override penalty(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.admit(key);
    return super.penalty(key, points, options);
  }
  override reward(key: string | number, points?: number, options?: { [key: string]: unknown }) {
    this.admit(key);
    return super.reward(key, points, options);
  }
  override delete(key: string | number, options?: { [key: string]: unknown }) {
    this.recent.delete(String(key));
    return super.delete(key, options);
  }

  keyCount(): number {
    return this.recent.size;
  }

  clear(): void {
    for (const k of this.recent.keys()) void super.delete(k);
    this.recent.clear();
  }
}

/** One named limit. Methods never throw for a store failure (the insurance answers then). */
export class Limiter {
  constructor(
    readonly name: string,
    readonly options: RateLimiterOptions,
    private readonly store: RateLimiterPostgres,
    private readonly insurance: CappedMemoryLimiter,
  ) {}

  /**
   * Counts `points` events now (a reservation, given back with refund) and answers the state
   * after them. `windowSeconds` sets the window of a key that has none yet.
   */
  async consume(key: string, points = 1, windowSeconds?: number): Promise<RateLimitState> {
    try {
      const res = await this.store.consume(storedKey(key), points, windowSeconds ? { customDuration: windowSeconds } : {});
      return stateOf(res, this.options.points, false);
    } catch (err) {
      if (err instanceof RateLimiterRes) return stateOf(err, this.options.points, true);
      throw err;
    }
  }

  /** Gives back points counted by consume (e.g. after a successful sign-in). */
  async refund(key: string, points = 1): Promise<void> {
    await this.store.reward(storedKey(key), points);
  }

  /** Forgets a key's count (and its block in this process). */
  async reset(key: string): Promise<void> {
    await this.store.delete(storedKey(key));
  }

  /** Milliseconds a key stays refused from this process's memory (0: not blocked). */
  blockedInMemoryMs(key: string): number {
    // A public method of the store abstract class that the library's typings leave out.
    const store = this.store as unknown as { getInMemoryBlockMsBeforeExpire(rlKey: string): number };
    return store.getInMemoryBlockMsBeforeExpire(this.store.getKey(storedKey(key)));
  }

  /** Drops this process's in-memory state (blocks and insurance counts). */
  clearMemory(): void {
    this.store.deleteInMemoryBlockedAll();
    this.insurance.clear();
  }

  /** Keys held in this process's insurance memory. */
  insuranceKeyCount(): number {
    return this.insurance.keyCount();
  }
}

export interface RateLimitsOptions {
  /** Connections of the limiter's own pool (kept apart so a flood cannot starve the app's). */
  poolMax?: number;
  /** Its name in pg_stat_activity (db/connections.ts). */
  applicationName?: string;
  /** Keys each limiter's insurance memory holds at most. */
  insuranceMaxKeys?: number;
}

/** The factory of every limiter of one process, over one small Postgres pool. */
export class RateLimits {
  private readonly pool: pg.Pool;
  private readonly limiters = new Map<string, Limiter>();
  private readonly cleanupTimer: NodeJS.Timeout;
  private lastFallbackLog = 0;

  constructor(
    databaseUrl: string,
    private readonly logger: Logger,
    private readonly opts: RateLimitsOptions = {},
  ) {
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: opts.poolMax ?? POOLS.ratelimits,
      application_name: opts.applicationName,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection that dies (database restart) must not crash the process.
    this.pool.on('error', (err) => logger.warn({ err }, 'rate limits: idle Postgres connection lost'));
    this.cleanupTimer = setInterval(() => void this.deleteExpired(), CLEANUP_EVERY_MS).unref();
  }

  /** The limiter called `name` (its key prefix in the shared table); one rule per name. */
  limiter(name: string, rule: RateLimiterOptions, opts: LimiterOptions = {}): Limiter {
    const existing = this.limiters.get(name);
    if (existing) {
      if (existing.options.points !== rule.points || existing.options.windowMs !== rule.windowMs) {
        throw new Error(`rate limiter "${name}" already exists with another rule`);
      }
      return existing;
    }
    const base: IRateLimiterOptions = { keyPrefix: name, points: rule.points, duration: Math.max(1, Math.ceil(rule.windowMs / 1000)) };
    const insurance = new CappedMemoryLimiter(base, this.opts.insuranceMaxKeys ?? DEFAULT_INSURANCE_MAX_KEYS, () => this.fallingBack(name));
    const store = new RateLimiterPostgres({
      ...base,
      storeClient: this.pool,
      storeType: 'pool',
      tableName: RATE_LIMIT_TABLE,
      // Created by migration 0070, so processes starting at once never race on CREATE TABLE.
      tableCreated: true,
      clearExpiredByTimeout: false,
      insuranceLimiter: insurance,
      ...(opts.blockInMemory === false ? {} : { inMemoryBlockOnConsumed: rule.points }),
    });
    const limiter = new Limiter(name, rule, store, insurance);
    this.limiters.set(name, limiter);
    return limiter;
  }

  private fallingBack(name: string): void {
    const now = Date.now();
    if (now - this.lastFallbackLog < 60_000) return;
    this.lastFallbackLog = now;
    this.logger.warn({ limiter: name }, 'rate limits: Postgres unreachable, counting in this process memory');
  }

  /** Rows of the shared table (every process's keys). */
  async storedKeyCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${RATE_LIMIT_TABLE}`);
    return Number(rows[0].n);
  }

  /** Every count forgotten, in Postgres and in this process (tests start each case clean). */
  async reset(): Promise<void> {
    await this.pool.query(`DELETE FROM ${RATE_LIMIT_TABLE}`);
    for (const limiter of this.limiters.values()) limiter.clearMemory();
  }

  private async deleteExpired(): Promise<void> {
    await this.pool
      .query(`DELETE FROM ${RATE_LIMIT_TABLE} WHERE expire < $1`, [Date.now()])
      .catch((err: unknown) => this.logger.warn({ err }, 'rate limits: expired rows not deleted'));
  }

  async close(): Promise<void> {
    clearInterval(this.cleanupTimer);
    await this.pool.end();
  }
}
