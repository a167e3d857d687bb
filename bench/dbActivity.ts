/**
 * Where a server's application pool spends its connections during a load: pg_stat_activity
 * sampled every few milliseconds, each `db` connection (db/connections.ts names them) counted by
 * its state and its statement. A connection `idle in transaction` is held while the server does
 * something else between two statements of one transaction: the time others wait for it.
 */
import pg from 'pg';

const EVERY_MS = 20;

export interface DbActivity {
  /** Ends the sampling; the lines to print (the busiest statements by state, as shares of the samples). */
  stop(): Promise<string[]>;
}

export function sampleDbActivity(databaseUrl: string, top = 8): DbActivity {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-activity' });
  const held = new Map<string, number>();
  let samples = 0;
  let sampling = true;
  const loop = (async () => {
    await client.connect();
    const db = (await client.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
    while (sampling) {
      const { rows } = await client.query<{ state: string | null; query: string }>(
        `SELECT state, regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS query FROM pg_stat_activity
         WHERE datname = $1 AND application_name LIKE 'aabify-%-db' AND state IS DISTINCT FROM 'idle'`,
        [db],
      );
      samples++;
      for (const r of rows) {
        const key = `${r.state ?? '?'}: ${r.query.replace(/'[^']*'/g, "'…'").replace(/\$\d+/g, '$n')}`;
        held.set(key, (held.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
    await client.end();
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      const total = [...held.values()].reduce((a, b) => a + b, 0);
      const byState = new Map<string, number>();
      for (const [k, n] of held) {
        const state = k.slice(0, k.indexOf(':'));
        byState.set(state, (byState.get(state) ?? 0) + n);
      }
      return [
        `${samples} samples every ${EVERY_MS} ms; connections of the application pool busy on average ${(total / Math.max(1, samples)).toFixed(1)}: ` +
          [...byState].map(([s, n]) => `${s} ${(n / Math.max(1, samples)).toFixed(1)}`).join(', '),
        ...[...held]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([k, n]) => `  ${((n / Math.max(1, total)) * 100).toFixed(0).padStart(3)} %  ${k}`),
      ];
    },
  };
}
