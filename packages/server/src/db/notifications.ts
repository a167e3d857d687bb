/**
 * Cross-process invalidation over Postgres LISTEN/NOTIFY: a process that changes something
 * other processes cache (settings, queue figures) notifies a topic; every process, this one
 * included, runs the topic's handlers. One dedicated connection per process listens; a NOTIFY
 * sent inside a transaction is delivered only when it commits. After a lost connection every
 * handler runs once (payload undefined), since notifications may have been missed meanwhile.
 */
import pg from 'pg';
import type { Sequelize, Transaction } from 'sequelize';
import type { Logger } from '../logger.js';

const CHANNEL = 'aabify_invalidate';
const RECONNECT_MS = 1000;

export type NotificationHandler = (payload: string | undefined) => void;

export interface Notifier {
  notify(topic: string, payload?: string, transaction?: Transaction): Promise<void>;
  on(topic: string, handler: NotificationHandler): void;
  close(): Promise<void>;
}

export async function createNotifier(opts: { databaseUrl: string; applicationName: string; sequelize: Sequelize; logger: Logger }): Promise<Notifier> {
  const handlers = new Map<string, Set<NotificationHandler>>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

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
    const c = new pg.Client({ connectionString: opts.databaseUrl, application_name: opts.applicationName });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const { topic, payload } = JSON.parse(msg.payload) as { topic: string; payload?: string };
        run(topic, payload);
      } catch (err) {
        opts.logger.warn({ err }, 'bad notification');
      }
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      if (closed) return;
      opts.logger.warn({ err }, 'notification connection lost; reconnecting');
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
    } catch (err) {
      if (initial) {
        client = undefined;
        await c.end().catch(() => undefined);
      } else lost(err as Error);
      throw err;
    }
  }

  await connect(true);
  return {
    async notify(topic, payload, transaction) {
      await opts.sequelize.query('SELECT pg_notify(:channel, :message)', {
        replacements: { channel: CHANNEL, message: JSON.stringify({ topic, payload }) },
        transaction,
      });
    },
    on(topic, handler) {
      let set = handlers.get(topic);
      if (!set) handlers.set(topic, (set = new Set()));
      set.add(handler);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
