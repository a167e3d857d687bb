/**
 * The socket.io protocol of conversions: the token comes in the handshake
 * (auth.token or a bearer header); a bad one gets `auth_error` and a disconnect. Bad tokens
 * count against the address's limit as on HTTP (past it, a connect_error RATE_LIMIT), and a
 * socket's events are rate-limited (SOCKET_EVENT_LIMITS).
 * A user past their live connections on this process is refused with a connect_error
 * (TOO_MANY_LIVE_CONNECTIONS, realtime/access.ts) — not `auth_error`, which signs the dashboard out.
 * The credential is checked again before every request is answered (one indexed query), so a
 * socket acts with its user's rights of now; one that no longer holds gets `auth_error` and
 * is closed. Access changes close sockets without waiting for a request (realtime/access.ts).
 * Clients subscribe per conversion (ownership checked: another user's conversion is
 * 'não encontrada ou não autorizada'), ask for stats and download links, and receive
 * `conversion:{id}` messages and `conversion-created`.
 */
import type { Server, Socket } from 'socket.io';
import proxyaddr from 'proxy-addr';
import { ACCOUNT_MESSAGES, CONVERSION_MESSAGES, SOCKET_EVENTS, conversionChannel, type ApiConversion } from '@aabify/shared';
import { Op } from 'sequelize';
import type { AppContext } from '../context.js';
import type { Conversion, User } from '../models/index.js';
import { findOwnedOrNull } from '../http/ownership.js';
import { mayDownloadFiles } from '../conversions/access.js';
import { issueDownloadToken } from '../conversions/downloads.js';
import { describeConversion } from '../conversions/presenter.js';
import { userRoom } from '../conversions/events.js';
import { snapshotMessages } from './snapshot.js';
import type { LiveSocketData } from './access.js';
import { ApiError } from '../http/errors.js';
import { accessRefusal, limitedCredentialCheck } from '../http/guards.js';
import type { AuthResult } from '../accounts/authService.js';
import { SOCKET_ADDRESS_LIMITS, SocketAddressGate, type SocketAddressLimits } from './addressLimits.js';

type Ack = (answer: unknown) => void;

/**
 * auth.token or a bearer header. Never the URL's query: polling repeats it on every request line,
 * where proxies log it (the event streams take single-use tickets there instead).
 */
function handshakeToken(socket: Socket): string | undefined {
  const auth: unknown = socket.handshake.auth;
  if (auth && typeof auth === 'object' && 'token' in auth && typeof auth.token === 'string' && auth.token) return auth.token.replace(/^Bearer\s+/i, '');
  const header = socket.handshake.headers.authorization;
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
}

/**
 * Calls `release` when the socket goes. 'disconnect' comes only once connected; the transport's
 * 'close' also covers a client that leaves before that (socket.io then drops the socket
 * silently). The transport may outlive the socket (a client can leave and rejoin the namespace
 * on one connection): no listener stays on it.
 */
function releaseWhenGone(socket: Socket, release: () => void): void {
  const free = () => {
    socket.conn.off('close', free);
    release();
  };
  socket.once('disconnect', free);
  socket.conn.once('close', free);
}

/**
 * Holds one of the user's live-connection slots for as long as the socket lives; over the cap,
 * the error that refuses the handshake: the client's connect_error, whose `data` is the body an
 * event stream gets with its 429 ({ message, code: 'TOO_MANY_LIVE_CONNECTIONS', retryAfter }).
 */
function holdConnectionSlot(ctx: Pick<AppContext, 'liveAccess'>, socket: Socket, userId: string): Error | undefined {
  // Gone during the handshake: socket.io drops it without a 'disconnect' (nothing to hold).
  if (socket.conn.readyState !== 'open') return undefined;
  let release: () => void;
  try {
    release = ctx.liveAccess.claimConnection(userId);
  } catch (err) {
    if (!(err instanceof ApiError)) return err instanceof Error ? err : new Error(String(err));
    return connectError(err);
  }
  releaseWhenGone(socket, release);
  return undefined;
}

/** `{conversionId}` or the bare id. */
function idOf(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (payload && typeof payload === 'object' && 'conversionId' in payload && typeof payload.conversionId === 'string') return payload.conversionId;
  return undefined;
}

function ackOf(args: unknown[]): Ack | undefined {
  const last = args[args.length - 1];
  return typeof last === 'function' ? (last as Ack) : undefined;
}

/** A refusal of the handshake as the client's connect_error, with the API's error body as `data`. */
const connectError = (err: ApiError): Error => Object.assign(new Error(err.message), { data: err.toBody() });

/** The Retry-After of a socket refused because its address holds its share: a pause before trying again. */
const ADDRESS_RETRY_AFTER_SECONDS = 30;

/**
 * Events a socket may send: a bucket of EVENT_BURST refilled at EVENTS_PER_SECOND, and at most
 * EVENTS_IN_FLIGHT answered at once. Each event rechecks the credential in the database, so
 * without a bound one connection could queue tens of thousands of queries with one request.
 * The dashboard sends a handful a second at most (subscriptions at start, stats every few seconds).
 */
export const SOCKET_EVENT_LIMITS = { burst: 60, perSecond: 20, inFlight: 8 };

export interface ConversionSocketOptions {
  /** Express's compiled TRUST_PROXY ('trust proxy fn'): the handshake's client address as req.ip has it. */
  trustProxy?: (address: string, hop: number) => boolean;
  /** Limits per client address other than SOCKET_ADDRESS_LIMITS (tests). */
  addressLimits?: Partial<SocketAddressLimits>;
}

/** What a web process stops when it shuts down. */
export interface ConversionSockets {
  close(): void;
}

/** What the conversion sockets read: credentials, rows, live stats and events, settings for support access. */
export type ConversionSocketDeps = Pick<
  AppContext,
  'auth' | 'models' | 'sequelize' | 'config' | 'settings' | 'logger' | 'liveAccess' | 'conversionEvents' | 'conversionStats'
>;

export function attachConversionSockets(ctx: ConversionSocketDeps, io: Server, options: ConversionSocketOptions = {}): ConversionSockets {
  const clientAddressOf = (socket: Socket): string =>
    options.trustProxy ? proxyaddr(socket.request, options.trustProxy) : (socket.request.socket.remoteAddress ?? socket.handshake.address);
  const addresses = new SocketAddressGate({ ...SOCKET_ADDRESS_LIMITS, ...options.addressLimits });
  // socket.io starts a handshake for every CONNECT packet of a connection while none has
  // finished: one polling request can hold thousands. One at a time per connection.
  const handshaking = new WeakSet<object>();

  // Authentication runs before `connection`, so handlers exist before the client's first emit;
  // a failure is still a connection that receives auth_error (the protocol's event), then closes.
  io.use((socket, next) => {
    const data = socket.data as LiveSocketData;
    // The address's limits first, from memory: past them, no credential is looked up at all.
    const address = clientAddressOf(socket);
    const handshake = addresses.handshake(address);
    if (!handshake.ok) return next(connectError(ApiError.tooManyRequests(handshake.retryAfter)));
    const releaseAddressSlot = addresses.claimSocket(address);
    if (!releaseAddressSlot) {
      return next(connectError(ApiError.tooManyRequests(ADDRESS_RETRY_AFTER_SECONDS, CONVERSION_MESSAGES.tooManyConnectionsFromAddress, 'TOO_MANY_CONNECTIONS_FROM_ADDRESS')));
    }
    const refuse = (err: Error) => {
      releaseAddressSlot();
      next(err);
    };
    const admit = () => {
      // Gone during the handshake: socket.io drops it without a 'disconnect' (nothing to hold).
      if (socket.conn.readyState === 'open') releaseWhenGone(socket, releaseAddressSlot);
      else releaseAddressSlot();
      next();
    };
    const token = handshakeToken(socket);
    if (!token) {
      data.auth = { ok: false, code: 'TOKEN_MISSING', message: CONVERSION_MESSAGES.tokenMissing };
      return admit();
    }
    if (handshaking.has(socket.conn)) return refuse(connectError(ApiError.tooManyRequests(1)));
    handshaking.add(socket.conn);
    // The per-address limit of bad credentials, as on every authenticated HTTP route.
    limitedCredentialCheck(ctx, address, async () => {
      const result = await ctx.auth.authenticateToken(token);
      if (!result.ok) throw ApiError.unauthorized(result.message, result.code);
      return result;
    })
      .then((result) => {
        // A socket reads conversions (an API token needs a scope granting it), as GET /conversion/status does.
        const refused = accessRefusal(result, { token: 'conversions:read' });
        if (refused) throw refused;
        return result;
      })
      .then(
        (result) => {
          data.auth = result;
          data.credential = result.credential;
          data.role = result.user.role;
          const refused = holdConnectionSlot(ctx, socket, result.user.id);
          if (refused) return refuse(refused);
          admit();
        },
        (err: unknown) => {
          if (!(err instanceof ApiError)) return refuse(err instanceof Error ? err : new Error(String(err)));
          if (err.status === 429) return refuse(connectError(err));
          data.auth = { ok: false, code: err.code as Extract<AuthResult, { ok: false }>['code'], message: err.message };
          admit();
        },
      )
      .finally(() => handshaking.delete(socket.conn));
  });

  io.on('connection', (socket) => {
    const data = socket.data as LiveSocketData;
    const auth = data.auth;
    if (!auth?.ok) {
      socket.emit(SOCKET_EVENTS.authError, { message: auth?.message ?? CONVERSION_MESSAGES.tokenMissing, code: auth?.code ?? 'TOKEN_INVALID' });
      setTimeout(() => socket.disconnect(true), 50);
      return;
    }
    const credential = auth.credential;
    const address = clientAddressOf(socket);
    // Access changes find the user's sockets in this room, on every process.
    void socket.join(userRoom(auth.user.id));

    const ownedConversion = (id: string | undefined, user: User): Promise<Conversion | null> =>
      id ? findOwnedOrNull(ctx.models.Conversion, id, user) : Promise.resolve(null);

    const refuse = (conversionId: string | undefined, ack?: Ack) => {
      const answer = { success: false, message: CONVERSION_MESSAGES.notFoundOrUnauthorized, conversionId };
      socket.emit(SOCKET_EVENTS.error, { message: CONVERSION_MESSAGES.notFoundOrUnauthorized, conversionId });
      ack?.(answer);
    };

    /** The user as of now, or undefined after telling the client its credential no longer holds. */
    const currentUser = async (ack?: Ack): Promise<User | undefined> => {
      const now = await ctx.auth.recheck(credential);
      if (now.ok) return now.user;
      socket.emit(SOCKET_EVENTS.authError, { message: now.message, code: now.code });
      ack?.({ success: false, message: now.message, code: now.code });
      setTimeout(() => socket.disconnect(true), 50);
      return undefined;
    };

    let tokens: number = SOCKET_EVENT_LIMITS.burst;
    let refilledAt = Date.now();
    let inFlight = 0;
    /** Whether this event may be answered now: over the limits it is refused without any work. */
    const takeEventSlot = (): boolean => {
      const now = Date.now();
      tokens = Math.min(SOCKET_EVENT_LIMITS.burst, tokens + ((now - refilledAt) / 1000) * SOCKET_EVENT_LIMITS.perSecond);
      refilledAt = now;
      if (tokens < 1 || inFlight >= SOCKET_EVENT_LIMITS.inFlight) return false;
      // The address's sockets together, beside this socket's own bucket.
      if (!addresses.event(address)) return false;
      tokens -= 1;
      return true;
    };

    const handle = (event: string, fn: (user: User, payload: unknown, ack?: Ack) => Promise<void>) => {
      socket.on(event, (...args: unknown[]) => {
        const ack = ackOf(args);
        const payload = typeof args[0] === 'function' ? undefined : args[0];
        if (!takeEventSlot()) {
          ack?.({ success: false, message: ACCOUNT_MESSAGES.tooManyRequests, code: 'RATE_LIMIT' });
          return;
        }
        inFlight += 1;
        const run = async () => {
          const user = await currentUser(ack);
          if (user) await fn(user, payload, ack);
        };
        run()
          .catch((err: unknown) => {
            // A coded refusal (a limit, a rule) reaches the client as the API would answer it.
            if (err instanceof ApiError) {
              socket.emit(SOCKET_EVENTS.error, { message: err.message, code: err.code, conversionId: idOf(payload) });
              ack?.({ success: false, message: err.message, code: err.code });
              return;
            }
            ctx.logger.warn({ err, event }, 'socket handler failed');
            socket.emit(SOCKET_EVENTS.error, { message: 'Erro interno do servidor', conversionId: idOf(payload) });
            ack?.({ success: false, message: 'Erro interno do servidor' });
          })
          .finally(() => (inFlight -= 1));
      });
    };

    const subscribe = async (c: Conversion) => {
      await socket.join(conversionChannel(c.id));
      for (const msg of await snapshotMessages(ctx, c.id)) socket.emit(conversionChannel(c.id), msg);
    };

    handle(SOCKET_EVENTS.subscribe, async (user, payload, ack) => {
      const id = idOf(payload);
      const c = await ownedConversion(id, user);
      if (!c) return refuse(id, ack);
      await subscribe(c);
      ack?.({ success: true, conversionId: c.id });
    });

    const unsubscribe = async (_user: User, payload: unknown, ack?: Ack) => {
      const id = idOf(payload);
      if (id) await socket.leave(conversionChannel(id));
      ack?.({ success: true, conversionId: id });
    };
    handle(SOCKET_EVENTS.unsubscribe, unsubscribe);
    handle('unsubscribe-conversion', unsubscribe);

    handle(SOCKET_EVENTS.autoSubscribe, async (user, _payload, ack) => {
      const active = await ctx.models.Conversion.findAll({
        where: { userId: user.id, status: { [Op.in]: ['pending', 'queued', 'processing'] } },
        order: [['createdAt', 'ASC']],
      });
      const list: ApiConversion[] = [];
      for (const c of active) {
        await socket.join(conversionChannel(c.id));
        list.push(await describeConversion(ctx, c));
      }
      socket.emit(SOCKET_EVENTS.activeConversions, list);
      ack?.(list);
    });

    handle(SOCKET_EVENTS.stats, async (user, payload, ack) => {
      const id = idOf(payload);
      const c = await ownedConversion(id, user);
      if (!c) {
        const answer = { conversionId: id, success: false, message: CONVERSION_MESSAGES.notFoundOrUnauthorized };
        socket.emit(SOCKET_EVENTS.statsResponse, answer);
        return ack?.(answer);
      }
      const answer = { success: true, ...(await describeConversion(ctx, c)) };
      socket.emit(SOCKET_EVENTS.statsResponse, answer);
      ack?.(answer);
    });

    handle(SOCKET_EVENTS.downloadLink, async (user, payload, ack) => {
      const id = idOf(payload);
      const refused = accessRefusal(auth, { token: 'downloads' });
      if (refused) throw refused;
      const c = await ownedConversion(id, user);
      let answer: Record<string, unknown>;
      if (!c) answer = { conversionId: id, success: false, message: CONVERSION_MESSAGES.notFoundOrUnauthorized };
      else if (!c.canDownload) answer = { conversionId: id, success: false, message: CONVERSION_MESSAGES.notDownloadable };
      else if (!(await mayDownloadFiles(ctx, c, user))) answer = { conversionId: id, success: false, message: CONVERSION_MESSAGES.adminDownloadNotAllowed };
      else {
        const t = await issueDownloadToken(ctx, c, { user, credential });
        answer = { success: true, conversionId: c.id, ...t, downloadLink: t.downloadUrl, link: t.downloadUrl };
      }
      socket.emit(SOCKET_EVENTS.downloadLinkResponse, answer);
      ack?.(answer);
    });
  });

  return { close: () => addresses.close() };
}
