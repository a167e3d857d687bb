/**
 * Live connections (sockets and event streams) lose what their user lost. They authenticate
 * once when they open, so whatever changes a user's rights — deactivation, deletion, demotion,
 * a password change (which ends the sessions), an API token revoked — calls
 * `liveAccess.accessChanged(userId)`. Every process (the adapter's serverSideEmit reaches
 * the others, this one is handled directly) then checks each of the user's connections it holds
 * against the database: one whose credential no longer holds is closed; one whose role changed
 * is closed too (a socket may sit in other users' conversion rooms as an admin) and reconnects
 * with its new rights. The dashboard reconnects after a server-side close; a handshake with a
 * credential that no longer holds gets `auth_error`, which signs it out.
 *
 * It also counts each user's live connections on this process: every open one holds a file
 * descriptor, listeners and buffers for as long as its client keeps it (heartbeats keep an idle
 * one alive), so one account could otherwise exhaust the process. Over
 * CONVERSION_LIMITS.liveConnectionsPerUser a new one is refused: an event stream with 429, a
 * socket with a connect_error, both TOO_MANY_LIVE_CONNECTIONS.
 */
import type { Server } from 'socket.io';
import type { AuthResult, AuthService, Credential } from '../accounts/authService.js';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, type UserRole } from '@aabify/shared';
import { userRoom } from '../conversions/events.js';
import { findOwnedOrNull } from '../http/ownership.js';
import { ApiError } from '../http/errors.js';

const REMOTE_ACCESS_CHANGED = 'aabify:access-changed';

/**
 * The Retry-After of a refused live connection: a slot frees when one of the user's connections
 * closes, which the server cannot foresee, so this is only a pause before trying again.
 */
const LIVE_CONNECTION_RETRY_AFTER_SECONDS = 30;

/** What a socket keeps from its handshake (socket.data). */
export interface LiveSocketData {
  auth?: AuthResult | { ok: false; code: 'TOKEN_MISSING'; message: string };
  /** Set once authenticated: checked again on every request and on access changes. */
  credential?: Credential;
  role?: UserRole;
}

/** An open event stream of one conversion, as its process holds it. */
export interface LiveStream {
  credential: Credential;
  role: UserRole;
  conversionId: string;
  /** Ends the stream (the client re-authenticates to open another). */
  end(): void;
}

export class LiveAccess {
  private readonly streams = new Map<string, Set<LiveStream>>();
  /** Open live connections (sockets and event streams) per user id, on this process. */
  private readonly connections = new Map<string, number>();

  constructor(
    private readonly io: Server,
    private readonly ctx: { auth: AuthService; models: Models; logger: Logger },
  ) {
    io.on(REMOTE_ACCESS_CHANGED, (userId: unknown) => {
      if (typeof userId === 'string') void this.checkLocal(userId);
    });
  }

  /**
   * The user's rights or credentials changed (call after the change is committed): their
   * connections on every process are checked again. Resolves once this process's are done.
   */
  async accessChanged(userId: string): Promise<void> {
    // The change's notification has reached this process (and was sent to every other one)
    // before the caller answers: the principal caches no longer hold what was changed.
    await this.ctx.auth.changesSettled();
    this.io.serverSideEmit(REMOTE_ACCESS_CHANGED, userId);
    await this.checkLocal(userId);
  }

  /**
   * Takes one of the user's live-connection slots on this process, or throws 429
   * TOO_MANY_LIVE_CONNECTIONS when they hold them all. Returns the release, to call when the
   * connection closes; calling it again does nothing.
   */
  claimConnection(userId: string): () => void {
    const held = this.connections.get(userId) ?? 0;
    if (held >= CONVERSION_LIMITS.liveConnectionsPerUser) {
      throw ApiError.tooManyRequests(LIVE_CONNECTION_RETRY_AFTER_SECONDS, CONVERSION_MESSAGES.tooManyLiveConnections, 'TOO_MANY_LIVE_CONNECTIONS');
    }
    this.connections.set(userId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.connections.get(userId) ?? 1) - 1;
      if (left > 0) this.connections.set(userId, left);
      else this.connections.delete(userId);
    };
  }

  /** Live connections the user holds on this process. */
  connectionsOf(userId: string): number {
    return this.connections.get(userId) ?? 0;
  }

  /** Registers an event stream; the returned function forgets it (on close). */
  track(stream: LiveStream): () => void {
    const userId = stream.credential.userId;
    let set = this.streams.get(userId);
    if (!set) this.streams.set(userId, (set = new Set()));
    set.add(stream);
    return () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(userId) === set) this.streams.delete(userId);
    };
  }

  private async checkLocal(userId: string): Promise<void> {
    try {
      const sockets = await this.io.local.in(userRoom(userId)).fetchSockets();
      for (const socket of sockets) {
        const data = socket.data as LiveSocketData;
        if (!data.credential) continue;
        const now = await this.ctx.auth.recheck(data.credential);
        if (!now.ok || now.user.role !== data.role) socket.disconnect(true);
      }
      for (const stream of [...(this.streams.get(userId) ?? [])]) {
        const now = await this.ctx.auth.recheck(stream.credential);
        const stillVisible = now.ok && (now.user.role === stream.role || (await findOwnedOrNull(this.ctx.models.Conversion, stream.conversionId, now.user)) !== null);
        if (!stillVisible) stream.end();
      }
    } catch (err) {
      this.ctx.logger.warn({ err, userId }, 'live connections not checked after an access change');
    }
  }
}
