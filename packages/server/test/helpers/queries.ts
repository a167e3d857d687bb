/** The SQL a test server sends while something runs: to show what costs a query and what does not. */
import type { Sequelize } from 'sequelize';
import type { AppContext } from '../../src/context.js';
import type { RunningServer } from '../../src/server.js';

/**
 * The statements matching `tables` that the server sent while `fn` ran: through the application
 * pool and through the read lanes (the rows the caches load, the queue figures: db/readLane.ts).
 */
export async function queriesDuring(
  server: { ctx: Pick<AppContext, 'sequelize'>; readLanes: RunningServer['readLanes'] },
  tables: RegExp,
  fn: () => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  const hook = (_options: unknown, query: object) => {
    const sql = (query as { sql?: string }).sql;
    if (sql && tables.test(sql)) seen.push(sql);
  };
  const watched: Sequelize[] = [server.ctx.sequelize, ...Object.values(server.readLanes).map((lane) => lane.sequelize)];
  // afterQuery: Sequelize sets a query's SQL only when it runs, after beforeQuery.
  for (const s of watched) s.addHook('afterQuery', 'queries-during', hook);
  try {
    await fn();
  } finally {
    for (const s of watched) s.removeHook('afterQuery', 'queries-during');
  }
  return seen;
}
