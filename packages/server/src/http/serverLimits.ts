/**
 * What the HTTP server gives one client, set deliberately against slow clients: a connection
 * that sends its headers a byte at a time (slowloris), or a body that drips, holds a socket, a
 * file descriptor and buffers for as long as the server waits.
 *
 * - Headers must be complete HEADERS_TIMEOUT after a request starts (Node answers 408 and closes);
 *   expired connections are looked for every `checkIntervalMs`.
 * - No total time for a request: an upload of hundreds of MB on a slow link may take hours.
 *   Instead a body must keep moving: in every `bodyProgress.windowMs` at least
 *   `bodyProgress.minBytes` arrive, or the connection ends with 408 REQUEST_TOO_SLOW. A window in
 *   which the server itself stopped reading (its own buffer holds unread bytes: a slow store)
 *   does not count against the client.
 * - A socket with no traffic either way for `idleTimeoutMs` is closed (event streams turn this
 *   off for themselves and send heartbeats); an idle keep-alive connection after
 *   `keepAliveTimeoutMs`.
 * - At most `maxHeadersCount` headers are read and `maxHeaderSize` bytes of them (431 past it).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { Logger } from '../logger.js';

export interface HttpServerLimits {
  headersTimeoutMs: number;
  /** How often Node looks for connections past headersTimeoutMs (its precision). */
  checkIntervalMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  maxHeadersCount: number;
  maxHeaderSize: number;
  bodyProgress: { windowMs: number; minBytes: number };
}

export const HTTP_SERVER_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 20_000,
  checkIntervalMs: 2_000,
  // Behind a proxy that keeps idle upstream connections longer, set the proxy's shorter (docs/deploy.md).
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 120_000,
  maxHeadersCount: 100,
  maxHeaderSize: 16 * 1024,
  // 32 KiB in 30 s (about 8.7 kbit/s): any real link, even a weak mobile one, sends more.
  bodyProgress: { windowMs: 30_000, minBytes: 32 * 1024 },
};

/** The HTTP server of a process, with the limits above (tests shorten them). */
export function createLimitedServer(app: RequestListener, logger: Logger, overrides: Partial<HttpServerLimits> = {}): Server {
  const limits = { ...HTTP_SERVER_LIMITS, ...overrides };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: 0,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
      maxHeaderSize: limits.maxHeaderSize,
    },
    app,
  );
  server.maxHeadersCount = limits.maxHeadersCount;
  server.setTimeout(limits.idleTimeoutMs);
  watchBodyProgress(server, limits.bodyProgress, logger);
  return server;
}

interface WatchedBody {
  req: IncomingMessage;
  res: ServerResponse;
  /** socket.bytesRead when the current window began. */
  bytesAtStart: number;
  windowStartedAt: number;
}

function hasBody(req: IncomingMessage): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return length > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Ends requests whose body does not arrive at the minimum rate. It reads only counters (the
 * socket's bytes read, the request's unread buffer): nothing here consumes the body.
 */
function watchBodyProgress(server: Server, rule: HttpServerLimits['bodyProgress'], logger: Logger): void {
  const watched = new Set<WatchedBody>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!hasBody(req) || req.complete) return;
    const entry: WatchedBody = { req, res, bytesAtStart: req.socket.bytesRead, windowStartedAt: Date.now() };
    watched.add(entry);
    const forget = () => watched.delete(entry);
    req.once('end', forget);
    req.once('close', forget);
    res.once('close', forget);
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const entry of watched) {
      const { req, res } = entry;
      if (req.complete || req.socket.destroyed) {
        watched.delete(entry);
        continue;
      }
      if (now - entry.windowStartedAt < rule.windowMs) continue;
      const arrived = req.socket.bytesRead - entry.bytesAtStart;
      // Unread bytes waiting in the request: the server is the slow one, not the client.
      const serverBehind = req.readableLength > 0;
      if (arrived < rule.minBytes && !serverBehind) {
        watched.delete(entry);
        logger.info({ method: req.method, bytesInWindow: arrived, windowMs: rule.windowMs }, 'request body too slow: connection closed');
        endTooSlow(req.socket, res);
        continue;
      }
      entry.bytesAtStart = req.socket.bytesRead;
      entry.windowStartedAt = now;
    }
  }, Math.max(50, Math.floor(rule.windowMs / 4)));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/** 408 with the coded pt-BR error when nothing was answered yet, then the connection closes. */
function endTooSlow(socket: Socket, res: ServerResponse): void {
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ message: ACCOUNT_MESSAGES.requestTooSlow, code: 'REQUEST_TOO_SLOW' });
  socket.end(
    `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
