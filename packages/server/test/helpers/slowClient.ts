/**
 * A slow HTTP client on a raw TCP socket (tests and bench/hostile.ts): it sends a request's
 * start, then drips the rest piece by piece, and reports what the server answered and whether
 * — and when — the server closed the connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** What the server sent. */
  received: string;
  /** Milliseconds from the first byte sent until the server closed the connection; undefined if it never did. */
  closedAfterMs?: number;
  /** Bytes the client had sent when the connection closed. */
  sent: number;
}

/**
 * Sends `head` then each of `drip`'s pieces every `everyMs`, until the pieces run out or the
 * server closes the connection; resolves once the connection is closed (by either side).
 */
export function dripRequest(baseUrl: string, head: Buffer, drip: Buffer[], everyMs: number): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), hostname);
    const exchange: RawExchange = { received: '', sent: 0 };
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    let closedByUs = false;
    const write = (piece: Buffer) => {
      if (socket.destroyed || socket.writableEnded) return;
      socket.write(piece);
      exchange.sent += piece.length;
    };
    socket.on('connect', () => {
      started = performance.now();
      write(head);
      let next = 0;
      timer = setInterval(() => {
        if (next >= drip.length) {
          clearInterval(timer);
          closedByUs = true;
          socket.destroy();
          return;
        }
        write(drip[next++]!);
      }, everyMs);
    });
    socket.on('data', (chunk: Buffer) => (exchange.received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      if (!closedByUs) exchange.closedAfterMs = Math.round(performance.now() - started);
      resolve(exchange);
    });
  });
}

