/**
 * Fixed-window counters kept in this process's memory. Each web process counts on its own
 * (with N web processes an attacker gets at most N times the limit), which keeps the check
 * free of database writes on the hot path.
 */
export interface RateLimiterOptions {
  /** Events allowed per window. */
  points: number;
  windowMs: number;
}

export interface RateLimitState {
  limited: boolean;
  remaining: number;
  /** Seconds until the window resets (at least 1 when limited). */
  retryAfter: number;
}

interface Bucket {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly options: RateLimiterOptions) {}

  /** The state of a key without counting an event. */
  peek(key: string, now = Date.now()): RateLimitState {
    const bucket = this.live(key, now);
    return this.state(bucket, now);
  }

  /** Counts one event and answers the state after it. */
  consume(key: string, now = Date.now()): RateLimitState {
    let bucket = this.live(key, now);
    if (!bucket) {
      this.sweep(now);
      bucket = { count: 0, resetAt: now + this.options.windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count++;
    return this.state(bucket, now);
  }

  reset(key?: string): void {
    if (key === undefined) this.buckets.clear();
    else this.buckets.delete(key);
  }

  private live(key: string, now: number): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket && bucket.resetAt <= now) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  private state(bucket: Bucket | undefined, now: number): RateLimitState {
    const count = bucket?.count ?? 0;
    const limited = count >= this.options.points;
    const retryAfter = bucket ? Math.max(1, Math.ceil((bucket.resetAt - now) / 1000)) : 0;
    return { limited, remaining: Math.max(0, this.options.points - count), retryAfter };
  }

  /** Drops expired buckets now and then so the map cannot grow without bound. */
  private sweep(now: number): void {
    if (this.buckets.size < 10000) return;
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}
