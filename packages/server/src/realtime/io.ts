/**
 * The socket.io server of a process, on the Postgres adapter so rooms reach sockets of every
 * process. Worker-only processes get one too (not attached to HTTP): their emits still reach
 * the web processes' sockets through the adapter.
 */
import pg from 'pg';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { Logger } from '../logger.js';
import { POOLS } from '../db/connections.js';

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

const POOL_END_GRACE_MS = 2000;

/**
 * serverSideEmit, sent only when another process is there to receive it. The adapter knows the
 * others from their messages: each announces itself when its socket.io server is created (before
 * it listens) and sends a heartbeat at least every 5 s; one silent for 10 s is forgotten. So a
 * process alone, the default install, spends no NOTIFY on a conversion's messages. Calls go out
 * in the order they were made (each waits the same one microtask).
 */
export async function emitToOtherProcesses(io: Server, event: string, ...args: unknown[]): Promise<void> {
  if ((await io.of('/').adapter.serverCount()) > 1) io.serverSideEmit(event, ...args);
}

export function createRealtime(databaseUrl: string, logger: Logger, applicationName?: string): Realtime {
  // Two connections: one held for LISTEN, one that publishes — a single publisher keeps a
  // conversion's messages in the order they were sent.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOLS.realtime, application_name: applicationName });
  pool.on('error', (err) => logger.warn({ err }, 'socket.io adapter pool error'));
  // The adapter keeps one client checked out for LISTEN: its errors (database restart,
  // shutdown) must be handled here or they would crash the process.
  pool.on('connect', (client) => client.on('error', (err) => logger.warn({ err }, 'socket.io adapter connection error')));
  const io = new Server({
    adapter: createAdapter(pool, { errorHandler: (err) => logger.warn({ err }, 'socket.io adapter error') }),
    serveClient: false,
    // Our events carry ids and small objects; the default (1 MB) let one request carry tens of
    // thousands of packets.
    maxHttpBufferSize: 16 * 1024,
    pingInterval: 10000,
    pingTimeout: 10000,
  });
  return {
    io,
    async close() {
      // Not io.close(): that would also close the HTTP server, which server.ts closes itself.
      // Only this process's sockets: io.disconnectSockets() goes through the adapter and would
      // disconnect every socket of every web process.
      io.local.disconnectSockets(true);
      io.engine?.close();
      await Promise.resolve(io.of('/').adapter.close()).catch(() => undefined);
      // The adapter's last publishes (its close announcement, heartbeats) can leave connection
      // requests the pool never answers once closing; they must not hold the shutdown.
      await Promise.race([pool.end().catch(() => undefined), new Promise((r) => setTimeout(r, POOL_END_GRACE_MS).unref())]);
    },
  };
}
