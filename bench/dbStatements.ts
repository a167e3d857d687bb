/**
 * Counts the statements a bench's server sends to Postgres, by kind: the bench's database logs
 * every statement (`log_statement = all`, set on that database only, so the bench's own setup
 * queries on the cluster are not counted), the embedded cluster's log reaches this process
 * (startEmbeddedPostgres's logger), and each logged statement is classified by what it touches.
 * Logging costs the database some CPU: a bench prints CPU figures from runs without it.
 */
import pino from 'pino';
import pg from 'pg';
import type { Logger } from '../packages/server/src/logger.js';

/** What a statement touches, first match wins (the order matters: a NOTIFY names no table). */
const KINDS: Array<[string, RegExp]> = [
  ['transaction control', /^(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i],
  ['advisory locks', /pg_(try_)?advisory/i],
  ['health probes', /^SELECT 1;?$/i],
  ['socket.io attachments', /socket_io_attachments/i],
  ['queue jobs (agenda_jobs)', /agenda_jobs/i],
  ['conversion logs', /conversion_logs/i],
  ['conversions', /\bconversions\b/i],
  ['users', /\busers\b/i],
  ['sessions and tokens', /\b(sessions|api_tokens)\b/i],
  ['rate limits', /rate_limit/i],
  ['settings', /\bsettings\b/i],
  ['worker instances', /worker_instances/i],
  ['e-mail outbox', /email_messages/i],
  ['audit', /audit_events/i],
];

export interface StatementCounter {
  /** Give to startEmbeddedPostgres: the cluster's log lines arrive here. */
  logger: Logger;
  /** Makes `databaseUrl`'s database log every statement (new connections only). */
  watch(databaseUrl: string, adminUrl: string): Promise<void>;
  /** Counts since the last reset, by kind, with the NOTIFYs split by channel. */
  take(): Map<string, number>;
}

export function statementCounter(): StatementCounter {
  let counts = new Map<string, number>();
  let notifyPending = false;
  const add = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const onLine = (line: string) => {
    const statement = /LOG:\s+(?:statement|execute [^:]*):\s*(.*)$/.exec(line)?.[1];
    if (statement !== undefined) {
      if (notifyPending) add('NOTIFY (unknown channel)');
      notifyPending = false;
      if (/pg_notify|^NOTIFY/i.test(statement)) {
        // Parameterised (the socket.io adapter, Agenda): the channel is on the DETAIL line.
        const channel = /pg_notify\('([^']+)'|^NOTIFY\s+"?([\w.#/-]+)/i.exec(statement);
        if (channel) add(`NOTIFY ${channelKind(channel[1] ?? channel[2]!)}`);
        else notifyPending = true;
        return;
      }
      add(KINDS.find(([, re]) => re.test(statement))?.[0] ?? `other: ${statement.slice(0, 60)}`);
      return;
    }
    if (notifyPending && /DETAIL:\s+parameters: \$1 = '/i.test(line)) {
      add(`NOTIFY ${channelKind(/\$1 = '([^']*)'/.exec(line)![1]!)}`);
      notifyPending = false;
    }
  };
  const sink = {
    write(json: string) {
      try {
        const text = (JSON.parse(json) as { postgres?: string }).postgres;
        if (text) for (const line of text.split('\n')) onLine(line);
      } catch {
        // not a cluster line
      }
    },
  };
  return {
    logger: pino({ level: 'debug' }, sink) as unknown as Logger,
    async watch(databaseUrl, adminUrl) {
      const name = new URL(databaseUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`ALTER DATABASE ${name} SET log_statement = 'all'`);
      await admin.end();
    },
    take() {
      const taken = counts;
      counts = new Map();
      return taken;
    },
  };
}

function channelKind(channel: string): string {
  if (channel.startsWith('socket.io')) return 'socket.io (events to clients and processes)';
  if (channel.startsWith('agenda')) return 'queue (Agenda job announcements)';
  return channel;
}

/** Lines for a report: each kind's count per conversion, largest first, and the total. */
export function statementLines(counts: Map<string, number>, conversions: number): string[] {
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, c]) => n + c, 0);
  const per = (n: number) => (n / conversions).toFixed(1);
  return [
    `statements per conversion: ${per(total)} (${total} in all)`,
    ...rows.filter(([, c]) => c / conversions >= 0.05).slice(0, 20).map(([kind, c]) => `    ${per(c).padStart(7)}  ${kind}`),
  ];
}
