/** The SQL a test server sends while something runs: to show what costs a query and what does not. */
import type { AppContext } from '../../src/context.js';

/** The statements matching `tables` that the server sent while `fn` ran. */
export async function queriesDuring(server: { ctx: Pick<AppContext, 'sequelize'> }, tables: RegExp, fn: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const hook = (_options: unknown, query: object) => {
    const sql = (query as { sql?: string }).sql;
    if (sql && tables.test(sql)) seen.push(sql);
  };
  // afterQuery: Sequelize sets a query's SQL only when it runs, after beforeQuery.
  server.ctx.sequelize.addHook('afterQuery', 'queries-during', hook);
  try {
    await fn();
  } finally {
    server.ctx.sequelize.removeHook('afterQuery', 'queries-during');
  }
  return seen;
}
