/**
 * Cross-process invalidation over Postgres LISTEN/NOTIFY: a process that changes something
 * other processes cache (settings, queue figures) notifies a topic; every process, this one
 * included, runs the topic's handlers. One dedicated connection per process listens; a NOTIFY
 * sent inside a transaction is delivered only when it commits. When the connection is lost, and
 * again once it is back, every handler runs (payload undefined): notifications may have been
 * missed meanwhile, so caches drop everything; `listening` is false in between, and caches
 * that rely on notifications serve nothing from memory then (db/notifiedCache.ts).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from '../logger.js';

/** The one channel; database triggers send on it too (migration 0120). */
export const INVALIDATION_CHANNEL = 'aabify_invalidate';
const CHANNEL = INVALIDATION_CHANNEL;
const RECONNECT_MS = 1000;
/** sync(): the request every process answers, and the answers (payload `id application_name`). */
const SYNC_TOPIC = 'notifier-sync';
const SYNC_ANSWER_TOPIC = 'notifier-synced';
const SYNC_TIMEOUT_MS = 2000;

export type NotificationHandler = (payload: string | undefined) => void;

export interface Notifier {
  notify(topic: string, payload?: string, transaction?: Transaction): Promise<void>;
  on(topic: string, handler: NotificationHandler): void;
  /** Whether the LISTEN connection is up (notifications arrive); caches trust memory only then. */
  readonly listening: boolean;
  /**
   * Resolves once every listening process (this one included) has handled everything
   * committed before the call: a sync message goes out, each process answers it from its
   * listener, and Postgres delivers in commit order on each connection, so an answer means
   * the earlier notifications were handled there. Writers of auth-relevant rows await it
   * before answering (realtime/access.ts accessChanged), so no process can serve the old
   * state to a request made after the answer. Gives up after SYNC_TIMEOUT_MS
   * (a process that does not answer is reconnecting, and serves nothing from memory then).
   */
  sync(): Promise<void>;
  /**
   * A round trip on the LISTEN connection: false when it is down. The liveness check asks this
   * connection rather than the application's pool, so a pool busy with a burst of requests
   * does not make a working process look dead (ops/healthRoutes.ts).
   */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** How listener connections are named (db/connections.ts applicationName(role, instance, 'notifications')). */
const LISTENER_NAME_PREFIX = 'aabify-';
const LISTENER_NAME_SUFFIX = '-notifications';

export async function createNotifier(opts: {
  databaseUrl: string;
  /** This process's listener connection's name, unique per process (its answers to sync() carry it). */
  applicationName: string;
  sequelize: Sequelize;
  logger: Logger;
}): Promise<Notifier> {
  const handlers = new Map<string, Set<NotificationHandler>>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let listening = false;
  /** Pending sync() calls of this process: who has still to answer. */
  const syncWaiters = new Map<string, { waiting: Set<string>; done: () => void }>();

  const run = (topic: string, payload: string | undefined) => {
    for (const h of handlers.get(topic) ?? []) {
      try {
        h(payload);
      } catch (err) {
        opts.logger.warn({ err, topic }, 'notification handler failed');
      }
    }
  };

  async function connect(initial = false): Promise<void> {
    // TCP keep-alive: a connection that died silently is noticed (and caches dropped) sooner.
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: opts.applicationName, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const { topic, payload } = JSON.parse(msg.payload) as { topic: string; payload?: string };
        if (topic === SYNC_TOPIC) answerSync(payload);
        else if (topic === SYNC_ANSWER_TOPIC) syncAnswered(payload);
        else run(topic, payload);
      } catch (err) {
        opts.logger.warn({ err }, 'bad notification');
      }
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      listening = false;
      c.end().catch(() => undefined);
      if (closed) return;
      opts.logger.warn({ err }, 'notification connection lost; reconnecting');
      // What was cached may change unannounced from now on.
      for (const topic of handlers.keys()) run(topic, undefined);
      retry = setTimeout(() => {
        connect().then(
          () => {
            for (const topic of handlers.keys()) run(topic, undefined);
          },
          () => lost(),
        );
      }, RECONNECT_MS);
      retry.unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (client === c) listening = true;
    } catch (err) {
      if (initial) {
        client = undefined;
        await c.end().catch(() => undefined);
      } else lost(err as Error);
      throw err;
    }
  }

  const notify: Notifier['notify'] = async (topic, payload, transaction) => {
    await opts.sequelize.query('SELECT pg_notify(:channel, :message)', {
      replacements: { channel: CHANNEL, message: JSON.stringify({ topic, payload }) },
      transaction,
    });
  };

  /** Another process's (or this one's) sync(): everything before it is handled here. */
  function answerSync(id: string | undefined): void {
    if (!id) return;
    notify(SYNC_ANSWER_TOPIC, `${id} ${opts.applicationName}`).catch((err: unknown) => opts.logger.warn({ err }, 'sync not answered'));
  }
  function syncAnswered(payload: string | undefined): void {
    const [id = '', name = ''] = (payload ?? '').split(' ');
    const waiter = syncWaiters.get(id);
    if (!waiter) return;
    waiter.waiting.delete(name);
    if (waiter.waiting.size === 0) waiter.done();
  }
  /** The listener connections of every process on this database (this one's included). */
  async function listeners(): Promise<Set<string>> {
    const rows = await opts.sequelize.query<{ name: string }>(
      `SELECT application_name AS name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE :pattern`,
      { replacements: { pattern: `${LISTENER_NAME_PREFIX}%${LISTENER_NAME_SUFFIX}` }, type: QueryTypes.SELECT },
    );
    return new Set([...rows.map((r) => r.name), opts.applicationName]);
  }

  await connect(true);
  return {
    notify,
    get listening() {
      return listening;
    },
    async sync() {
      if (!listening) return;
      const id = randomUUID();
      const waiting = await listeners();
      const answered = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          opts.logger.warn({ unanswered: [...waiting] }, 'notification sync: processes did not answer in time');
          resolve();
        }, SYNC_TIMEOUT_MS);
        timer.unref();
        syncWaiters.set(id, {
          waiting,
          done: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
      try {
        await notify(SYNC_TOPIC, id);
        await answered;
      } finally {
        syncWaiters.delete(id);
      }
    },
    async ping() {
      const c = client;
      if (!c || !listening) return false;
      await c.query('SELECT 1');
      return true;
    },
    on(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
