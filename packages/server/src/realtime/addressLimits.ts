/**
 * socket.io floods from many sockets of one client address, bounded on each process in memory
 * (no query: a refusal costs nothing):
 *
 * - handshakes: a bucket of `handshakeBurst` refilled at `handshakesPerSecond` — each handshake
 *   may look a credential up in the database, and a reconnect loop must not become a query loop;
 * - live sockets: at most `sockets` at once, whatever the accounts (the per-user cap of
 *   realtime/access.ts does not stop one person with many accounts);
 * - events: all the address's sockets together draw from one bucket of `eventBurst` refilled at
 *   `eventsPerSecond`, beside each socket's own limits (SOCKET_EVENT_LIMITS): hundreds of sockets
 *   each within its own limit would otherwise add up to thousands of queries a second.
 *
 * Addresses are keyed as the HTTP limits key them (IPv6 by its /64). Many customers may share an
 * address (a carrier's NAT), so the figures are generous; an address's entry is forgotten once it
 * holds no socket and its buckets are full again.
 */
import { CONVERSION_LIMITS } from '@aabify/shared';
import { addressLimitKey } from '../http/rateLimit.js';

export interface SocketAddressLimits {
  sockets: number;
  handshakeBurst: number;
  handshakesPerSecond: number;
  eventBurst: number;
  eventsPerSecond: number;
}

export const SOCKET_ADDRESS_LIMITS: SocketAddressLimits = {
  sockets: CONVERSION_LIMITS.liveConnectionsPerAddress,
  handshakeBurst: 60,
  handshakesPerSecond: 2,
  eventBurst: 300,
  eventsPerSecond: 100,
};

const SWEEP_EVERY_MS = 60_000;

/** A bucket of `burst` tokens refilled continuously at `perSecond`. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
  }

  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Seconds until the next token. */
  wait(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }

  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }
}

interface AddressState {
  sockets: number;
  handshakes: Bucket;
  events: Bucket;
}

export class SocketAddressGate {
  private readonly addresses = new Map<string, AddressState>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly limits: SocketAddressLimits) {
    this.sweep = setInterval(() => this.forgetIdle(), SWEEP_EVERY_MS);
    this.sweep.unref();
  }

  private state(address: string, now: number): AddressState {
    const key = addressLimitKey(address);
    let state = this.addresses.get(key);
    if (!state) {
      const { handshakeBurst, handshakesPerSecond, eventBurst, eventsPerSecond } = this.limits;
      state = { sockets: 0, handshakes: new Bucket(handshakeBurst, handshakesPerSecond, now), events: new Bucket(eventBurst, eventsPerSecond, now) };
      this.addresses.set(key, state);
    }
    return state;
  }

  /** A handshake from `address` may go on; else the seconds to wait. */
  handshake(address: string): { ok: true } | { ok: false; retryAfter: number } {
    const now = Date.now();
    const { handshakes } = this.state(address, now);
    return handshakes.take(now) ? { ok: true } : { ok: false, retryAfter: handshakes.wait(now) };
  }

  /** One of the address's socket slots, released by the returned function (once); undefined when it holds them all. */
  claimSocket(address: string): (() => void) | undefined {
    const state = this.state(address, Date.now());
    if (state.sockets >= this.limits.sockets) return undefined;
    state.sockets += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.sockets -= 1;
    };
  }

  /** Whether one more event of the address's sockets may be answered now. */
  event(address: string): boolean {
    const now = Date.now();
    return this.state(address, now).events.take(now);
  }

  /** Addresses tracked now (tests: memory stays bounded). */
  get size(): number {
    return this.addresses.size;
  }

  forgetIdle(): void {
    const now = Date.now();
    for (const [key, state] of this.addresses) {
      if (state.sockets === 0 && state.handshakes.full(now) && state.events.full(now)) this.addresses.delete(key);
    }
  }

  close(): void {
    clearInterval(this.sweep);
  }
}
